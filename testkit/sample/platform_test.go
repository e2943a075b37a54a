package sample_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opkit-dev/opkit/testkit/sample"
)

func TestPlatformCRDsDecodeEveryKindOfTheAPIModule(t *testing.T) {
	crds, err := sample.PlatformCRDs()
	require.NoError(t, err)
	type shape struct {
		Name, Kind string
		Scope      apiextensionsv1.ResourceScope
	}
	var got []shape
	for _, c := range crds {
		got = append(got, shape{c.Name, c.Spec.Names.Kind, c.Spec.Scope})
	}
	want := []shape{
		{"authenticationclasses.authentication.opkit.dev", "AuthenticationClass", apiextensionsv1.ClusterScoped},
		{"s3buckets.s3.opkit.dev", "S3Bucket", apiextensionsv1.NamespaceScoped},
		{"s3connections.s3.opkit.dev", "S3Connection", apiextensionsv1.NamespaceScoped},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("platform CRDs (-want +got):\n%s", diff)
	}
}
