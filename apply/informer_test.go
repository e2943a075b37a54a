package apply_test

import (
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/opkit-dev/opkit/apply"
)

func TestInformerObjectMatchesHowAPassReads(t *testing.T) {
	tests := []struct {
		gvk  schema.GroupVersionKind
		want string
	}{
		{corev1.SchemeGroupVersion.WithKind("ConfigMap"), "*v1.PartialObjectMetadata"},
		{rbacv1.SchemeGroupVersion.WithKind("RoleBinding"), "*v1.PartialObjectMetadata"},
		{appsv1.SchemeGroupVersion.WithKind("StatefulSet"), "*v1.StatefulSet"},
		{corev1.SchemeGroupVersion.WithKind("Service"), "*v1.Service"},
		{schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, "*unstructured.Unstructured"},
	}
	for _, tt := range tests {
		got := apply.InformerObject(tt.gvk, clientgoscheme.Scheme)
		if typ := fmt.Sprintf("%T", got); typ != tt.want {
			t.Errorf("%s: %s, want %s", tt.gvk.Kind, typ, tt.want)
		}
		if got.GetObjectKind().GroupVersionKind() != tt.gvk {
			t.Errorf("%s: the object carries %v", tt.gvk.Kind, got.GetObjectKind().GroupVersionKind())
		}
	}
}
