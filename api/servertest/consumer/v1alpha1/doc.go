// Package v1alpha1 defines Consumer (group consumer.test.opkit.dev), a
// product-like kind whose spec embeds every type the api module offers
// products for the platform: an S3 bucket source, a database connection,
// authentication class references, a listener class, a secret-class volume
// and TLS settings. Its generated CRD carries the markers of those types
// exactly as a product's would.
//
// +kubebuilder:object:generate=true
// +groupName=consumer.test.opkit.dev
package v1alpha1

//go:generate ../../../../hack/controller-gen.sh object crd paths=./... output:crd:artifacts:config=../crd
