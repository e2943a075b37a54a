// Package v1alpha1 holds the types a product's cluster custom resource embeds
// so that opkit can reconcile it: the cluster spec (image, cluster operation,
// roles and role groups), the role-group configuration block (resources,
// affinity, logging, graceful shutdown), the override channels, the image
// spec, the PodDisruptionBudget spec and the cluster status with its
// role-group ledger. It also names every label and annotation key opkit
// reads or writes.
//
// A product CRD embeds ClusterSpec and ClusterStatus:
//
//	type TrinoClusterSpec struct {
//		v1alpha1.ClusterSpec `json:",inline"`
//		// product fields …
//	}
//
// The markers on these types carry the validation the API server enforces:
// role and role-group keys must be lowercase RFC 1123 labels, bounded in
// number so the CEL rule's cost is bounded. Affinity and pod overrides are
// schema-free (the API server neither validates nor prunes them); their
// strict decoding is done by the configfold module.
//
// +kubebuilder:object:generate=true
package v1alpha1

//go:generate ../../../hack/controller-gen.sh object paths=./...
