package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// BucketSpec is a bucket on an S3 endpoint.
type BucketSpec struct {
	// BucketName is the bucket's name on the endpoint.
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9.-]*[a-z0-9]$`
	BucketName string `json:"bucketName"`

	// Connection is the endpoint the bucket lives on.
	Connection ConnectionSource `json:"connection"`
}

// BucketSource is a bucket stated inline or the name of an S3Bucket in the
// same namespace, exactly one of the two. A product CRD embeds it.
//
// +kubebuilder:validation:XValidation:rule="has(self.inline) != has(self.reference)",message="set exactly one of inline and reference"
type BucketSource struct {
	// Inline is the bucket itself.
	// +optional
	Inline *BucketSpec `json:"inline,omitempty"`

	// Reference names an S3Bucket in the same namespace.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Reference *string `json:"reference,omitempty"`
}

// S3Bucket is a reusable bucket, referred to by products in its namespace.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,shortName=s3bucket
// +kubebuilder:printcolumn:name="Bucket",type=string,JSONPath=`.spec.bucketName`
type S3Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the bucket.
	Spec BucketSpec `json:"spec"`
}

// S3BucketList is a list of S3Bucket.
//
// +kubebuilder:object:root=true
type S3BucketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the buckets.
	Items []S3Bucket `json:"items"`
}
