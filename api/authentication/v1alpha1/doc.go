// Package v1alpha1 defines AuthenticationClass (group
// authentication.opkit.dev, cluster-scoped): one way users prove who they
// are, shared by every product of the cluster — TLS client certificates,
// an LDAP directory, an OpenID Connect provider or Kerberos — and
// ClassReference, the type a product CRD embeds to use a class, with the
// options that differ per product (an OIDC client's credentials and extra
// scopes).
//
//	type ClusterConfig struct {
//		// Authentication lists the classes users may authenticate with.
//		// +optional
//		Authentication []authenticationv1alpha1.ClassReference `json:"authentication,omitempty"`
//	}
//
// The CRD is generated into package [github.com/opkit-dev/opkit/api/crd];
// its CEL rules refuse a class stating no provider or more than one, and
// module authentication resolves references.
//
// +kubebuilder:object:generate=true
// +groupName=authentication.opkit.dev
package v1alpha1

//go:generate ../../../hack/controller-gen.sh object crd paths=./... output:crd:artifacts:config=../../crd
