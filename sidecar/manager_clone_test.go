package sidecar_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/sidecar"
)

// TestCloneForBuildIsolatesConcurrentBuilds runs many builds at once on
// clones of one start-up manager, each setting its own product image and
// toggling a provider. Run with -race: sharing the manager instead of
// cloning it is both a data race and visible in the images.
func TestCloneForBuildIsolatesConcurrentBuilds(t *testing.T) {
	base := sidecar.NewManager()
	require.NoError(t, base.Register(&stubProvider{name: "agent", phase: sidecar.PhasePipeline}))
	require.NoError(t, base.Register(&stubProvider{name: "exporter"}))

	const builds = 32
	got := make([][]corev1.Container, builds)
	errs := make([]error, builds)
	var wg sync.WaitGroup
	for i := range builds {
		wg.Go(func() {
			m := base.CloneForBuild()
			m.SetProductImage(sidecar.ProductImage{Reference: fmt.Sprintf("product:%d", i)})
			if i%2 == 1 {
				errs[i] = m.Disable("exporter")
			}
			spec := &corev1.PodSpec{}
			if err := m.Inject(spec, sidecar.Target{}); err != nil {
				errs[i] = err
			}
			got[i] = spec.Containers
		})
	}
	wg.Wait()

	for i := range builds {
		require.NoError(t, errs[i], "build %d", i)
		image := fmt.Sprintf("product:%d", i)
		want := []corev1.Container{{Name: "exporter", Image: image}, {Name: "agent", Image: image}}
		if i%2 == 1 {
			want = want[1:]
		}
		if diff := cmp.Diff(want, got[i]); diff != "" {
			t.Errorf("build %d (-want +got):\n%s", i, diff)
		}
	}

	// The start-up manager saw none of it.
	spec := &corev1.PodSpec{}
	require.NoError(t, base.Inject(spec, sidecar.Target{}))
	want := []corev1.Container{{Name: "exporter"}, {Name: "agent"}}
	if diff := cmp.Diff(want, spec.Containers); diff != "" {
		t.Errorf("start-up manager changed by its clones (-want +got):\n%s", diff)
	}
}

func TestProductImageReachesProvidersRegisteredLater(t *testing.T) {
	m := sidecar.NewManager()
	m.SetProductImage(sidecar.ProductImage{Reference: "product:1"})
	require.NoError(t, m.Register(&stubProvider{name: "late"}))
	spec := &corev1.PodSpec{}
	require.NoError(t, m.Inject(spec, sidecar.Target{}))
	if diff := cmp.Diff([]corev1.Container{{Name: "late", Image: "product:1"}}, spec.Containers); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
