package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the API group and version of SampleCluster.
var GroupVersion = schema.GroupVersion{Group: "sample.opkit.dev", Version: "v1alpha1"}

// AddToScheme registers SampleCluster and SampleClusterList with s.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &SampleCluster{}, &SampleClusterList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
