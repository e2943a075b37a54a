package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// SampleClusterSpec is the spec of a SampleCluster: the common cluster spec
// and one product-specific field, as a real product's spec would look.
type SampleClusterSpec struct {
	commonsv1alpha1.ClusterSpec `json:",inline"`

	// Note is a product-specific field beside the embedded common spec.
	// +optional
	Note string `json:"note,omitempty"`
}

// SampleClusterStatus is the status of a SampleCluster: the common cluster
// status alone.
type SampleClusterStatus struct {
	commonsv1alpha1.ClusterStatus `json:",inline"`
}

// SampleCluster is a minimal product cluster resource for tests.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=samplecluster
type SampleCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	Spec SampleClusterSpec `json:"spec,omitempty"`
	// Status is the observed state.
	Status SampleClusterStatus `json:"status,omitempty"`
}

// SampleClusterList is a list of SampleCluster.
//
// +kubebuilder:object:root=true
type SampleClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the listed clusters.
	Items []SampleCluster `json:"items"`
}
