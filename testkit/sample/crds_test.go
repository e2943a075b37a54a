package sample_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opkit-dev/opkit/testkit/sample"
)

func TestCRDsDecodeTheNamespacedSampleClusterWithStatusSubresource(t *testing.T) {
	crds, err := sample.CRDs()
	require.NoError(t, err)
	require.Len(t, crds, 1)
	crd := crds[0]

	type shape struct {
		Name, Group, Kind string
		Scope             apiextensionsv1.ResourceScope
		Versions          []string
		Status            bool
	}
	got := shape{Name: crd.Name, Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind, Scope: crd.Spec.Scope}
	for _, v := range crd.Spec.Versions {
		got.Versions = append(got.Versions, v.Name)
		got.Status = v.Subresources != nil && v.Subresources.Status != nil
	}
	want := shape{
		Name: "sampleclusters.sample.opkit.dev", Group: "sample.opkit.dev", Kind: "SampleCluster",
		Scope: apiextensionsv1.NamespaceScoped, Versions: []string{"v1alpha1"}, Status: true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CRD shape (-want +got):\n%s", diff)
	}
}

func TestCRDsReturnsIndependentCopies(t *testing.T) {
	first, err := sample.CRDs()
	require.NoError(t, err)
	first[0].Spec.Group = "changed.example.com"

	second, err := sample.CRDs()
	require.NoError(t, err)
	if second[0].Spec.Group != "sample.opkit.dev" {
		t.Errorf("a caller's change leaked into the next CRDs() result: group %q", second[0].Spec.Group)
	}
}
