package configfold

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/stretchr/testify/require"
)

const groupPodOverrides = "spec.roles.server.roleGroups.default.podOverrides"

func TestPodOverridesAcceptStrategicMergeDirectives(t *testing.T) {
	tests := []struct {
		name  string
		patch string
	}{
		{name: "$patch delete on a list element",
			patch: `{"spec":{"volumes":[{"name":"config","$patch":"delete"}]}}`},
		{name: "$patch replace as a list element",
			patch: `{"spec":{"containers":[{"name":"main","volumeMounts":[{"$patch":"replace"},{"name":"data","mountPath":"/data"}]}]}}`},
		{name: "$patch merge and replace on maps",
			patch: `{"metadata":{"labels":{"$patch":"replace","a":"b"}},"spec":{"securityContext":{"$patch":"merge","runAsUser":1000}}}`},
		{name: "$patch delete on a struct",
			patch: `{"spec":{"affinity":{"$patch":"delete"}}}`},
		{name: "$setElementOrder beside its list",
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"x"}]}}`},
		{name: "$setElementOrder without its list",
			patch: `{"spec":{"$setElementOrder/initContainers":[{"name":"b"},{"name":"a"}]}}`},
		{name: "$retainKeys naming fields of the struct it stands in",
			patch: `{"spec":{"volumes":[{"name":"data","$retainKeys":["name","emptyDir"],"emptyDir":{}}]}}`},
		{name: "$deleteFromPrimitiveList on a container's args",
			patch: `{"spec":{"containers":[{"name":"main","$deleteFromPrimitiveList/args":["--debug"]}]}}`},
		{name: "directives at the root",
			patch: `{"$patch":"merge","metadata":{"annotations":{"a":"b"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mergeOverrides(nil, nil, &v1alpha1.OverridesSpec{PodOverrides: raw(tt.patch)})
			require.NoError(t, err)
			require.Empty(t, ignoredOf(got))
			want := []PodOverrideLayer{{Layer: v1alpha1.LayerRoleGroup, Patch: []byte(tt.patch)}}
			if diff := cmp.Diff(want, got.PodOverrides); diff != "" {
				t.Errorf("the patch is not kept as written (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPodOverridesStillRejectTypos(t *testing.T) {
	tests := []struct {
		name      string
		patch     string
		wantPaths []string
		wantCause error
	}{
		{name: "a misspelt directive is an unknown field",
			patch:     `{"spec":{"containers":[{"name":"main","$ptach":"replace"}]}}`,
			wantPaths: []string{groupPodOverrides + ".spec.containers[0].$ptach"}, wantCause: ErrUnknownField},
		{name: "a directive prefix in the wrong case is an unknown field",
			patch:     `{"spec":{"$setelementorder/containers":[]}}`,
			wantPaths: []string{groupPodOverrides + ".spec.$setelementorder/containers"}, wantCause: ErrUnknownField},
		{name: "an unknown $patch value",
			patch:     `{"spec":{"volumes":[{"name":"config","$patch":"remove"}]}}`,
			wantPaths: []string{groupPodOverrides + ".spec.volumes[0].$patch"}, wantCause: ErrInvalidValue},
		{name: "a $patch that is no string",
			patch:     `{"spec":{"$patch":true}}`,
			wantPaths: []string{groupPodOverrides + ".spec.$patch"}, wantCause: ErrInvalidValue},
		{name: "$setElementOrder naming a field the struct does not have",
			patch:     `{"spec":{"$setElementOrder/containres":[{"name":"a"}]}}`,
			wantPaths: []string{groupPodOverrides + ".spec.$setElementOrder/containres"}, wantCause: ErrUnknownField},
		{name: "$deleteFromPrimitiveList naming a field the container does not have",
			patch:     `{"spec":{"containers":[{"name":"main","$deleteFromPrimitiveList/argz":["--debug"]}]}}`,
			wantPaths: []string{groupPodOverrides + ".spec.containers[0].$deleteFromPrimitiveList/argz"}, wantCause: ErrUnknownField},
		{name: "$retainKeys naming a field the struct does not have",
			patch:     `{"spec":{"volumes":[{"name":"data","$retainKeys":["name","emtpyDir"]}]}}`,
			wantPaths: []string{groupPodOverrides + ".spec.volumes[0].$retainKeys"}, wantCause: ErrUnknownField},
		{name: "$retainKeys that is no list of names",
			patch:     `{"spec":{"$retainKeys":"containers"}}`,
			wantPaths: []string{groupPodOverrides + ".spec.$retainKeys"}, wantCause: ErrMalformed},
		{name: "$setElementOrder that is no list",
			patch:     `{"spec":{"$setElementOrder/containers":{"name":"a"}}}`,
			wantPaths: []string{groupPodOverrides + ".spec.$setElementOrder/containers"}, wantCause: ErrMalformed},
		{name: "a typo beside a valid directive is still reported",
			patch:     `{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"a","imgae":"x"}]}}`,
			wantPaths: []string{groupPodOverrides + ".spec.containers[0].imgae"}, wantCause: ErrUnknownField},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mergeOverrides(nil, nil, &v1alpha1.OverridesSpec{PodOverrides: raw(tt.patch)})
			require.NoError(t, err)
			require.Empty(t, got.PodOverrides)
			require.Len(t, got.IgnoredPodOverrides, 1)
			var paths []string
			for _, e := range got.IgnoredPodOverrides[0].Errors {
				paths = append(paths, e.FieldPath())
				if !errors.Is(e, tt.wantCause) {
					t.Errorf("%v does not wrap %v", e, tt.wantCause)
				}
			}
			if diff := cmp.Diff(tt.wantPaths, paths); diff != "" {
				t.Errorf("reported paths mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
