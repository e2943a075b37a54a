package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
)

// LakehouseSpec is the common cluster spec and the product's platform
// settings.
type LakehouseSpec struct {
	commonsv1alpha1.ClusterSpec `json:",inline"`

	// Warehouse is where tables live.
	// +optional
	Warehouse *s3v1alpha1.BucketSource `json:"warehouse,omitempty"`

	// TLS secures the product's own endpoints.
	// +optional
	TLS *TLSSpec `json:"tls,omitempty"`

	// Listeners maps a role to the listener class exposing it; a role not
	// named is cluster-internal.
	// +optional
	Listeners map[string]listenerv1alpha1.Class `json:"listeners,omitempty"`

	// Owner is a product field the product's defaulting sets.
	// +optional
	Owner string `json:"owner,omitempty"`
}

// TLSSpec says where the product's certificates come from.
type TLSSpec struct {
	// ServerSecretClass issues the servers' certificates.
	// +kubebuilder:validation:MinLength=1
	ServerSecretClass string `json:"serverSecretClass"`
}

// LakehouseStatus is the common cluster status.
type LakehouseStatus struct {
	commonsv1alpha1.ClusterStatus `json:",inline"`
}

// Lakehouse is a product cluster resource for tests.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced
type Lakehouse struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	Spec LakehouseSpec `json:"spec,omitempty"`
	// Status is the observed state.
	Status LakehouseStatus `json:"status,omitempty"`
}

// LakehouseList is a list of Lakehouse.
//
// +kubebuilder:object:root=true
type LakehouseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the resources.
	Items []Lakehouse `json:"items"`
}

// GetClusterSpec returns the embedded common spec.
func (l *Lakehouse) GetClusterSpec() *commonsv1alpha1.ClusterSpec { return &l.Spec.ClusterSpec }

// GetClusterStatus returns the embedded common status.
func (l *Lakehouse) GetClusterStatus() *commonsv1alpha1.ClusterStatus { return &l.Status.ClusterStatus }

// GroupVersion is the API group and version of Lakehouse.
var GroupVersion = schema.GroupVersion{Group: "lakehouse.test.opkit.dev", Version: "v1alpha1"}

// AddToScheme registers Lakehouse and LakehouseList with s.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Lakehouse{}, &LakehouseList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
