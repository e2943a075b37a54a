package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the API group and version of S3Connection and S3Bucket.
var GroupVersion = schema.GroupVersion{Group: "s3.opkit.dev", Version: "v1alpha1"}

// AddToScheme registers S3Connection, S3Bucket and their lists with s.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &S3Connection{}, &S3ConnectionList{}, &S3Bucket{}, &S3BucketList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
