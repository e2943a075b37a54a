package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
)

// WebsiteSpec is a static website served by nginx: the parameters of the
// operator's Helm chart and kustomization.
type WebsiteSpec struct {
	// Suspend stops reconciling the website while set.
	componentv1alpha1.SuspensionSpec `json:",inline"`
	// Timeout bounds how long the website may take to become ready.
	componentv1alpha1.TimeoutSpec `json:",inline"`

	// Version is the nginx version, the image tag.
	// +kubebuilder:validation:Pattern=`^[0-9]+\.[0-9]+(\.[0-9]+)?$`
	Version string `json:"version"`

	// Replicas of the web server. Unset means 2.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=20
	Replicas *int32 `json:"replicas,omitempty"`

	// Greeting is the home page's headline.
	// +optional
	// +kubebuilder:validation:MaxLength=200
	Greeting string `json:"greeting,omitempty"`

	// AdminPassword is the Secret key holding the password of the admin
	// pages. Changing the Secret re-renders the website.
	AdminPassword componentv1alpha1.SecretKeyReference `json:"adminPassword"`
}

// WebsiteStatus is the status the component reconciler owns.
type WebsiteStatus struct {
	componentv1alpha1.Status `json:",inline"`
}

// Website is a website run by the example website operator.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:printcolumn:name="State",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="Revision",type=integer,JSONPath=`.status.revision`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Website struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired website.
	Spec WebsiteSpec `json:"spec"`
	// Status is what the operator observed and did.
	Status WebsiteStatus `json:"status,omitempty"`
}

// WebsiteList is a list of Website.
//
// +kubebuilder:object:root=true
type WebsiteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the websites.
	Items []Website `json:"items"`
}

// GetSpec returns the spec, the generators' parameters.
func (w *Website) GetSpec() any { return &w.Spec }

// GetStatus returns the status the reconciler owns.
func (w *Website) GetStatus() *componentv1alpha1.Status { return &w.Status.Status }
