package sample_test

import (
	"encoding/json"
	"testing"

	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// newCluster returns a SampleCluster in ns with a generated name and the
// given common spec.
func newCluster(ns string, spec commonsv1alpha1.ClusterSpec) *samplev1alpha1.SampleCluster {
	return &samplev1alpha1.SampleCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "sample-"},
		Spec:       samplev1alpha1.SampleClusterSpec{ClusterSpec: spec},
	}
}

// rolesNamed returns n roles named role-0 … role-<n-1>, each with one group.
func rolesNamed(n int) map[string]commonsv1alpha1.RoleSpec {
	roles := make(map[string]commonsv1alpha1.RoleSpec, n)
	for i := range n {
		roles[fmt.Sprintf("role-%d", i)] = commonsv1alpha1.RoleSpec{
			RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {}},
		}
	}
	return roles
}

// groupsNamed returns n role groups named group-0 … group-<n-1>.
func groupsNamed(n int) map[string]commonsv1alpha1.RoleGroupSpec {
	groups := make(map[string]commonsv1alpha1.RoleGroupSpec, n)
	for i := range n {
		groups[fmt.Sprintf("group-%d", i)] = commonsv1alpha1.RoleGroupSpec{}
	}
	return groups
}

// decodeJSON decodes s into generic values for comparison independent of
// key order and whitespace.
func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}
