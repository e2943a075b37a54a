// Package v1alpha1 defines how products reach S3 object storage: the kinds
// S3Connection (an endpoint: host, port, region, path-style or virtual-host
// access, TLS, credentials from a secret class) and S3Bucket (a bucket name
// and its connection), both in group s3.opkit.dev, and the types a product
// CRD embeds to use one: BucketSource and ConnectionSource, each holding its
// value inline or naming an object of the kind in the product's namespace,
// never both.
//
//	type HiveClusterSpec struct {
//		commonsv1alpha1.ClusterSpec `json:",inline"`
//		// Warehouse is where tables live.
//		Warehouse s3v1alpha1.BucketSource `json:"warehouse"`
//	}
//
// The CRDs of both kinds are generated into package
// [github.com/opkit-dev/opkit/api/crd]; module s3 resolves a source and
// renders what a product writes from it.
//
// +kubebuilder:object:generate=true
// +groupName=s3.opkit.dev
package v1alpha1

//go:generate ../../../hack/controller-gen.sh object crd paths=./... output:crd:artifacts:config=../../crd
