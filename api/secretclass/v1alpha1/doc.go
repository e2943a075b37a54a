// Package v1alpha1 holds the types a product CRD embeds to ask a secret
// operator for secrets: a secret-class volume (Volume, with its Scope) and
// the TLS settings of a connection to another system (TLS: no verification,
// or the server verified against the web PKI or a CA from a secret class).
// The S3, database and authentication types of this module use them, and a
// product uses them for its own TLS and Kerberos settings.
//
// It also names the CSI driver and the volume claim annotations a secret
// operator reads (Driver, AnnotationClass, …); module secretvolume builds
// the volumes from them.
//
//	type TLSSpec struct {
//		// ServerSecretClass issues the product's own certificates.
//		ServerSecretClass *string `json:"serverSecretClass,omitempty"`
//	}
//	type ConnectionSpec struct {
//		TLS *secretclassv1alpha1.TLS `json:"tls,omitempty"`
//	}
//
// The CEL rules on these types make the API server refuse, at admission, a
// TLS verification or CA source that states both alternatives or neither.
//
// +kubebuilder:object:generate=true
package v1alpha1

//go:generate ../../../hack/controller-gen.sh object paths=./...
