package configfold

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
)

func qty(s string) *resource.Quantity {
	q := resource.MustParse(s)
	return &q
}

func withResources(r *v1alpha1.ResourcesSpec) *v1alpha1.RoleGroupConfigSpec {
	return &v1alpha1.RoleGroupConfigSpec{Resources: r}
}

func TestFoldCommonResourcesFoldPerLeaf(t *testing.T) {
	tests := []struct {
		name                  string
		defaults, role, group *v1alpha1.ResourcesSpec
		want                  *v1alpha1.ResourcesSpec
	}{
		{name: "nothing stated is nil"},
		{name: "a default cpu.min survives a group that sets only cpu.max",
			defaults: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Min: qty("250m"), Max: qty("1")}},
			group:    &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Max: qty("4")}},
			want:     &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Min: qty("250m"), Max: qty("4")}}},
		{name: "each leaf comes from the last layer stating it",
			defaults: &v1alpha1.ResourcesSpec{
				Memory:  &v1alpha1.MemoryResource{Limit: qty("1Gi")},
				Storage: &v1alpha1.StorageResource{Capacity: qty("10Gi"), StorageClass: new("standard")},
			},
			role:  &v1alpha1.ResourcesSpec{Memory: &v1alpha1.MemoryResource{Limit: qty("2Gi")}},
			group: &v1alpha1.ResourcesSpec{Storage: &v1alpha1.StorageResource{Capacity: qty("50Gi")}},
			want: &v1alpha1.ResourcesSpec{
				Memory:  &v1alpha1.MemoryResource{Limit: qty("2Gi")},
				Storage: &v1alpha1.StorageResource{Capacity: qty("50Gi"), StorageClass: new("standard")},
			}},
		{name: "an empty storage class is a value, not unset",
			role:  &v1alpha1.ResourcesSpec{Storage: &v1alpha1.StorageResource{StorageClass: new("fast")}},
			group: &v1alpha1.ResourcesSpec{Storage: &v1alpha1.StorageResource{StorageClass: new("")}},
			want:  &v1alpha1.ResourcesSpec{Storage: &v1alpha1.StorageResource{StorageClass: new("")}}},
		{name: "an empty group does not clear the leaves beneath it",
			role:  &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Min: qty("1")}},
			group: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{}},
			want:  &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Min: qty("1")}}},
		{name: "empty groups alone fold to nothing",
			group: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{}, Memory: &v1alpha1.MemoryResource{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			folded, err := foldCommon(withResources(tt.defaults), withResources(tt.role), withResources(tt.group))
			got := folded.Config
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got.Resources); diff != "" {
				t.Errorf("resources mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
