package bundle

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
)

// GroupVersion is the API group and version of Bundle.
var GroupVersion = schema.GroupVersion{Group: "bundle.e2e.opkit.dev", Version: "v1alpha1"}

// AddToScheme registers Bundle and BundleList with s.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Bundle{}, &BundleList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// BundleSpec holds the parameters of a bundle: the templates' values.
type BundleSpec struct {
	componentv1alpha1.PlacementSpec `json:",inline"`
	componentv1alpha1.PolicySpec    `json:",inline"`
	componentv1alpha1.RetrySpec     `json:",inline"`

	// Message is rendered into every ConfigMap of the bundle.
	// +optional
	Message string `json:"message,omitempty"`
	// Replicas of the bundle's Deployment.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// ConfigMaps is how many ConfigMaps the bundle renders besides the
	// Deployment and its Service.
	// +optional
	// +kubebuilder:validation:Minimum=0
	ConfigMaps int32 `json:"configMaps,omitempty"`
}

// BundleStatus is the status of a bundle.
type BundleStatus struct {
	componentv1alpha1.Status `json:",inline"`
}

// Bundle is a set of objects rendered from Go templates.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:printcolumn:name="State",type=string,JSONPath=`.status.state`
type Bundle struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	Spec BundleSpec `json:"spec,omitempty"`
	// Status is the observed state.
	Status BundleStatus `json:"status,omitempty"`
}

// GetSpec returns the spec.
func (b *Bundle) GetSpec() any { return &b.Spec }

// GetStatus returns the component status.
func (b *Bundle) GetStatus() *componentv1alpha1.Status { return &b.Status.Status }

// BundleList is a list of Bundle.
//
// +kubebuilder:object:root=true
type BundleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the listed bundles.
	Items []Bundle `json:"items"`
}
