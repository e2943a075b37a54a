package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

// AccessStyle is how a bucket is addressed on the endpoint.
//
// +kubebuilder:validation:Enum=Path;VirtualHosted
type AccessStyle string

// The access styles.
const (
	// AccessStylePath addresses a bucket as https://host/bucket: what most
	// self-hosted stores (MinIO, Ceph) need.
	AccessStylePath AccessStyle = "Path"
	// AccessStyleVirtualHosted addresses a bucket as https://bucket.host:
	// the AWS default.
	AccessStyleVirtualHosted AccessStyle = "VirtualHosted"
)

// Keys of the credentials a connection's secret class provides, as files
// in the mounted volume.
const (
	// AccessKeyFile holds the access key ID.
	AccessKeyFile = "accessKey"
	// SecretKeyFile holds the secret access key.
	SecretKeyFile = "secretKey"
)

// ConnectionSpec is an S3 endpoint and how to authenticate to it.
type ConnectionSpec struct {
	// Host is the endpoint's DNS name or IP address, without scheme or
	// port.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="!self.contains('/') && !self.contains(':')",message="host is a name or address alone, without scheme, port or path"
	Host string `json:"host"`

	// Port is the endpoint's port. Unset means 443 with TLS, 80 without.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// AccessStyle is how buckets are addressed. Unset means
	// VirtualHosted.
	// +optional
	AccessStyle AccessStyle `json:"accessStyle,omitempty"`

	// Region is the signing region. Unset means "us-east-1", which
	// self-hosted stores accept.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	Region string `json:"region,omitempty"`

	// Credentials is the secret class providing accessKey and secretKey.
	// Unset means anonymous access.
	// +optional
	Credentials *secretclassv1alpha1.Volume `json:"credentials,omitempty"`

	// TLS encrypts the connection. Unset means plain HTTP.
	// +optional
	TLS *secretclassv1alpha1.TLS `json:"tls,omitempty"`
}

// ConnectionSource is a connection stated inline or the name of an
// S3Connection in the same namespace, exactly one of the two.
//
// +kubebuilder:validation:XValidation:rule="has(self.inline) != has(self.reference)",message="set exactly one of inline and reference"
type ConnectionSource struct {
	// Inline is the connection itself.
	// +optional
	Inline *ConnectionSpec `json:"inline,omitempty"`

	// Reference names an S3Connection in the same namespace.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Reference *string `json:"reference,omitempty"`
}

// S3Connection is a reusable S3 endpoint, referred to by buckets and
// products in its namespace.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,shortName=s3conn
// +kubebuilder:printcolumn:name="Host",type=string,JSONPath=`.spec.host`
// +kubebuilder:printcolumn:name="Port",type=integer,JSONPath=`.spec.port`
type S3Connection struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the endpoint.
	Spec ConnectionSpec `json:"spec"`
}

// S3ConnectionList is a list of S3Connection.
//
// +kubebuilder:object:root=true
type S3ConnectionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the connections.
	Items []S3Connection `json:"items"`
}
