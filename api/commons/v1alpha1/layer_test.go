package v1alpha1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

func TestLayerFieldPath(t *testing.T) {
	tests := []struct {
		layer  v1alpha1.Layer
		field  string
		want   string
		author failure.Author
	}{
		{v1alpha1.LayerRoleGroup, "config.affinity", "spec.roles.server.roleGroups.default.config.affinity", failure.AuthorUser},
		{v1alpha1.LayerRoleGroup, "", "spec.roles.server.roleGroups.default", failure.AuthorUser},
		{v1alpha1.LayerRole, "podOverrides.spec", "spec.roles.server.podOverrides.spec", failure.AuthorUser},
		{v1alpha1.LayerCluster, "image.productVersion", "spec.image.productVersion", failure.AuthorUser},
		{v1alpha1.LayerDeclaration, "configDefaults.affinity", "roles[server].configDefaults.affinity", failure.AuthorOperator},
		{v1alpha1.LayerDefaults, "image.repo", "defaults.image.repo", failure.AuthorOperator},
		{v1alpha1.LayerRole, "[0]", "spec.roles.server[0]", failure.AuthorUser},
		{v1alpha1.Layer("bogus"), "x", "x", failure.AuthorUnknown},
	}
	for _, tt := range tests {
		t.Run(string(tt.layer)+"/"+tt.field, func(t *testing.T) {
			if got := tt.layer.FieldPath("server", "default", tt.field); got != tt.want {
				t.Errorf("FieldPath = %q, want %q", got, tt.want)
			}
			if got := tt.layer.Author(); got != tt.author {
				t.Errorf("Author = %v, want %v", got, tt.author)
			}
		})
	}
}

func TestLayersLowestFirst(t *testing.T) {
	want := []v1alpha1.Layer{"defaults", "declaration", "cluster", "role", "roleGroup"}
	if diff := cmp.Diff(want, v1alpha1.Layers()); diff != "" {
		t.Errorf("Layers (-want +got):\n%s", diff)
	}
}
