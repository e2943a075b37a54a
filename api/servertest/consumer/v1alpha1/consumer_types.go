package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

// ConsumerSpec embeds every shared platform type.
type ConsumerSpec struct {
	// Warehouse is a bucket, inline or by reference.
	// +optional
	Warehouse *s3v1alpha1.BucketSource `json:"warehouse,omitempty"`
	// Database is the metadata database.
	// +optional
	Database *databasev1alpha1.Connection `json:"database,omitempty"`
	// Authentication lists authentication classes.
	// +optional
	Authentication []authenticationv1alpha1.ClassReference `json:"authentication,omitempty"`
	// ListenerClass exposes the product.
	// +optional
	ListenerClass *listenerv1alpha1.Class `json:"listenerClass,omitempty"`
	// Keytab is a secret-class volume.
	// +optional
	Keytab *secretclassv1alpha1.Volume `json:"keytab,omitempty"`
	// TLS is a client TLS setting.
	// +optional
	TLS *secretclassv1alpha1.TLS `json:"tls,omitempty"`
}

// Consumer is a product-like resource for tests.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced
type Consumer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	Spec ConsumerSpec `json:"spec,omitempty"`
}

// ConsumerList is a list of Consumer.
//
// +kubebuilder:object:root=true
type ConsumerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the resources.
	Items []Consumer `json:"items"`
}

// GroupVersion is the API group and version of Consumer.
var GroupVersion = schema.GroupVersion{Group: "consumer.test.opkit.dev", Version: "v1alpha1"}

// AddToScheme registers Consumer and ConsumerList with s.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Consumer{}, &ConsumerList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
