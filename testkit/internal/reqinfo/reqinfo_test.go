package reqinfo

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name   string
		method string
		target string
		want   Info
	}{
		{"core get", "GET", "/api/v1/namespaces/ns/pods/p", Info{Verb: "get", Resource: "pods", Namespace: "ns", Name: "p", Plural: "pods"}},
		{"core list", "GET", "/api/v1/namespaces/ns/configmaps", Info{Verb: "list", Resource: "configmaps", Namespace: "ns", Plural: "configmaps"}},
		{"watch", "GET", "/apis/apps/v1/namespaces/ns/statefulsets?watch=true", Info{Verb: "watch", Resource: "statefulsets.apps", Namespace: "ns", Group: "apps", Plural: "statefulsets"}},
		{"create", "POST", "/apis/apps/v1/namespaces/ns/statefulsets", Info{Verb: "create", Resource: "statefulsets.apps", Namespace: "ns", Group: "apps", Plural: "statefulsets"}},
		{"update subresource", "PUT", "/apis/apps/v1/namespaces/ns/statefulsets/s/scale", Info{Verb: "update", Resource: "statefulsets.apps/scale", Namespace: "ns", Name: "s", Group: "apps", Plural: "statefulsets", Subresource: "scale"}},
		{"patch cluster scoped", "PATCH", "/api/v1/nodes/n", Info{Verb: "patch", Resource: "nodes", Name: "n", Plural: "nodes"}},
		{"delete", "DELETE", "/api/v1/namespaces/ns/secrets/s", Info{Verb: "delete", Resource: "secrets", Namespace: "ns", Name: "s", Plural: "secrets"}},
		{"deletecollection", "DELETE", "/api/v1/namespaces/ns/secrets", Info{Verb: "deletecollection", Resource: "secrets", Namespace: "ns", Plural: "secrets"}},
		{"discovery", "GET", "/apis", Info{Verb: "get", Resource: "/apis"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(httptest.NewRequestWithContext(t.Context(), tt.method, tt.target, nil))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Classify(%s %s) mismatch (-want +got):\n%s", tt.method, tt.target, diff)
			}
		})
	}
}
