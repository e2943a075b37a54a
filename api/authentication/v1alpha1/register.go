package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the API group and version of AuthenticationClass.
var GroupVersion = schema.GroupVersion{Group: "authentication.opkit.dev", Version: "v1alpha1"}

// AddToScheme registers AuthenticationClass and its list with s.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &AuthenticationClass{}, &AuthenticationClassList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
