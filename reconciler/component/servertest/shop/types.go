package shop

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
)

// GroupVersion is the API group and version of Shop.
var GroupVersion = schema.GroupVersion{Group: "shop.opkit.dev", Version: "v1alpha1"}

// AddToScheme registers Shop and ShopList with s.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Shop{}, &ShopList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// ShopSpec holds the parameters of a shop: the generator's values.
type ShopSpec struct {
	componentv1alpha1.PlacementSpec     `json:",inline"`
	componentv1alpha1.ClientSpec        `json:",inline"`
	componentv1alpha1.ImpersonationSpec `json:",inline"`
	componentv1alpha1.SuspensionSpec    `json:",inline"`
	componentv1alpha1.RequeueSpec       `json:",inline"`
	componentv1alpha1.RetrySpec         `json:",inline"`
	componentv1alpha1.TimeoutSpec       `json:",inline"`
	componentv1alpha1.PolicySpec        `json:",inline"`
	componentv1alpha1.TypeSpec          `json:",inline"`
	componentv1alpha1.ReapplySpec       `json:",inline"`

	// Message is rendered into the shop's settings.
	// +optional
	Message string `json:"message,omitempty"`
	// Replicas of the shop's web Deployment.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// Unschedulable gives the web pods a node selector no node matches,
	// so the Deployment never becomes ready.
	// +optional
	Unschedulable bool `json:"unschedulable,omitempty"`
	// Credentials is the database password, rendered into a Secret.
	// +optional
	Credentials *componentv1alpha1.SecretKeyReference `json:"credentials,omitempty"`
	// Branding is optional data; a missing ConfigMap renders as empty.
	// +optional
	Branding *componentv1alpha1.ConfigMapReference `json:"branding,omitempty" opkit:"notFound=ignore"`
}

// ShopStatus is the status of a shop.
type ShopStatus struct {
	componentv1alpha1.Status `json:",inline"`
}

// Shop is a web shop, rendered from a Helm chart and a kustomization.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:printcolumn:name="State",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="Revision",type=integer,JSONPath=`.status.revision`
type Shop struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	Spec ShopSpec `json:"spec,omitempty"`
	// Status is the observed state.
	Status ShopStatus `json:"status,omitempty"`
}

// GetSpec returns the spec.
func (s *Shop) GetSpec() any { return &s.Spec }

// GetStatus returns the component status.
func (s *Shop) GetStatus() *componentv1alpha1.Status { return &s.Status.Status }

// ShopList is a list of Shop.
//
// +kubebuilder:object:root=true
type ShopList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the listed shops.
	Items []Shop `json:"items"`
}
