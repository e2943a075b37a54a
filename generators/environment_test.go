package generators_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

func TestEnvironmentTravelsInTheContext(t *testing.T) {
	require.Equal(t, generators.Environment{}, generators.EnvironmentFrom(t.Context()))
	env := generators.Environment{ReconcilerName: "r", Revision: 7}
	require.Equal(t, env, generators.EnvironmentFrom(generators.WithEnvironment(t.Context(), env)))
}

func TestEnvironmentDefaults(t *testing.T) {
	var zero generators.Environment
	got := []any{zero.EffectiveRevision(), zero.IsInstall(), zero.EffectiveParametersPath(), zero.EffectiveLocalClient() == nil}
	if diff := cmp.Diff([]any{int64(1), true, "spec", true}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	second := generators.Environment{Revision: 2, ParametersPath: "spec.values"}
	got = []any{second.EffectiveRevision(), second.IsInstall(), second.EffectiveParametersPath()}
	if diff := cmp.Diff([]any{int64(2), false, "spec.values"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAnnotationKey(t *testing.T) {
	key, err := generators.Environment{ReconcilerName: "shop.example.com"}.AnnotationKey(generators.SuffixApplyOrder)
	require.NoError(t, err)
	require.Equal(t, "shop.example.com/apply-order", key)

	_, err = generators.Environment{}.AnnotationKey(generators.SuffixApplyOrder)
	if diff := cmp.Diff([]any{failure.ClassInvalid, failure.AuthorOperator, "Environment.ReconcilerName"},
		[]any{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}); diff != "" {
		t.Errorf("error %v (-want +got):\n%s", err, diff)
	}
}

type discoveryData struct {
	groups    []*metav1.APIGroup
	resources []*metav1.APIResourceList
	err       error
}

func (d discoveryData) ServerVersion() (*version.Info, error) {
	return &version.Info{GitVersion: "v1.37.2"}, nil
}

func (d discoveryData) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return d.groups, d.resources, d.err
}

func TestDiscoverCapabilities(t *testing.T) {
	d := discoveryData{
		groups: []*metav1.APIGroup{
			{Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "apps/v1"}}},
			{Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "v1"}}},
		},
		resources: []*metav1.APIResourceList{
			{GroupVersion: "v1", APIResources: []metav1.APIResource{{Kind: "Pod"}, {Kind: "Pod"}, {Kind: "ConfigMap"}}},
			{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{{Kind: "Deployment"}}},
		},
		// An aggregated API that is down does not fail the rendering.
		err: &discovery.ErrGroupDiscoveryFailed{Groups: map[schema.GroupVersion]error{{Group: "metrics.k8s.io", Version: "v1beta1"}: errors.New("503")}},
	}
	caps, err := generators.DiscoverCapabilities(d)
	require.NoError(t, err)
	want := []string{"apps/v1", "apps/v1/Deployment", "v1", "v1/ConfigMap", "v1/Pod"}
	if diff := cmp.Diff(want, caps.APIVersions); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	require.Equal(t, "v1.37.2", caps.KubeVersion.GitVersion)

	_, err = generators.DiscoverCapabilities(discoveryData{err: errors.New("connection refused")})
	require.ErrorContains(t, err, "connection refused")
}
