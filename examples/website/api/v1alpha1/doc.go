// Package v1alpha1 defines Website (group web.examples.opkit.dev), the
// component resource of the example website operator: its spec is the
// parameters of a Helm chart (the web server) and a kustomization (its
// network policy and disruption budget); its status is the one the
// component reconciler owns.
//
// +kubebuilder:object:generate=true
// +groupName=web.examples.opkit.dev
package v1alpha1

//go:generate ../../../../hack/controller-gen.sh object crd paths=./... output:crd:artifacts:config=../crd
