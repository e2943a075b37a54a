package sidecar_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
)

func TestInjectOrderIsPhaseThenNameWhateverTheRegistrationOrder(t *testing.T) {
	providers := map[string]*stubProvider{
		"vector":   {name: "vector", phase: sidecar.PhasePipeline},
		"jmx":      {name: "jmx", phase: sidecar.PhaseDefault},
		"audit":    {name: "audit", phase: sidecar.PhaseDefault},
		"certs":    {name: "certs", phase: sidecar.PhaseProducer},
		"aardvark": {name: "aardvark", phase: sidecar.PhasePipeline},
	}
	want := []string{"main", "certs", "audit", "jmx", "aardvark", "vector"}
	tests := []struct {
		name         string
		order, extra []string
	}{
		{name: "alphabetical", order: []string{"aardvark", "audit", "certs", "jmx", "vector"}},
		{name: "reversed", order: []string{"vector", "jmx", "certs", "audit", "aardvark"}},
		{name: "mixed, some extra for the build", order: []string{"jmx", "aardvark", "vector"}, extra: []string{"certs", "audit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var registered, extra []sidecar.Provider
			for _, name := range tt.order {
				registered = append(registered, providers[name])
			}
			for _, name := range tt.extra {
				extra = append(extra, providers[name])
			}
			reg, err := sidecar.NewRegistry(registered...)
			require.NoError(t, err)
			plan, err := reg.Plan(sidecar.PlanOptions{Extra: extra})
			require.NoError(t, err)
			spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}}
			require.NoError(t, plan.Inject(spec, builders.PodTarget{MainContainer: "main"}))
			if diff := cmp.Diff(want, containerNames(spec)); diff != "" {
				t.Errorf("container order (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want[1:], plan.Names()); diff != "" {
				t.Errorf("Names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanLeavesOutDisabledProviders(t *testing.T) {
	reg, err := sidecar.NewRegistry(&stubProvider{name: "a"}, &stubProvider{name: "b"})
	require.NoError(t, err)
	plan, err := reg.Plan(sidecar.PlanOptions{Disabled: []string{"a"}})
	require.NoError(t, err)
	spec := &corev1.PodSpec{}
	require.NoError(t, plan.Inject(spec, builders.PodTarget{}))
	if diff := cmp.Diff([]string{"b"}, containerNames(spec)); diff != "" {
		t.Errorf("with a disabled (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b"}, reg.Names()); diff != "" {
		t.Errorf("the registry is unchanged (-want +got):\n%s", diff)
	}
}

func TestRegistrationErrors(t *testing.T) {
	a := &stubProvider{name: "a"}
	tests := []struct {
		name string
		do   func() error
		want string
	}{
		{name: "duplicate name", do: func() error { _, err := sidecar.NewRegistry(a, &stubProvider{name: "a"}); return err },
			want: `sidecar provider "a": is given twice`},
		{name: "empty name", do: func() error { _, err := sidecar.NewRegistry(&stubProvider{}); return err },
			want: `sidecar provider "": has an empty name`},
		{name: "nil", do: func() error { _, err := sidecar.NewRegistry(nil); return err },
			want: `sidecar provider "": is nil`},
		{name: "unknown phase", do: func() error { _, err := sidecar.NewRegistry(&stubProvider{name: "x", phase: 7}); return err },
			want: `sidecar provider "x": has unknown phase(7)`},
		{name: "disable unknown", do: func() error {
			reg, _ := sidecar.NewRegistry(a)
			_, err := reg.Plan(sidecar.PlanOptions{Disabled: []string{"nope"}})
			return err
		}, want: `sidecar provider "nope": is not registered, so it cannot be disabled`},
		{name: "extra clashing with a registered one", do: func() error {
			reg, _ := sidecar.NewRegistry(a)
			_, err := reg.Plan(sidecar.PlanOptions{Extra: []sidecar.Provider{&stubProvider{name: "a"}}})
			return err
		}, want: `sidecar provider "a": is given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			var rerr *sidecar.RegistrationError
			require.ErrorAs(t, err, &rerr)
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
		})
	}
}

// TestPlansOfConcurrentBuildsAreIndependent derives many plans at once from
// one start-up registry, each with its own product image and enabled set.
// Run with -race: a registry that changed when planned would be both a data
// race and visible in the images.
func TestPlansOfConcurrentBuildsAreIndependent(t *testing.T) {
	reg, err := sidecar.NewRegistry(&stubProvider{name: "agent", phase: sidecar.PhasePipeline}, &stubProvider{name: "exporter"})
	require.NoError(t, err)

	const builds = 32
	got := make([][]corev1.Container, builds)
	errs := make([]error, builds)
	var wg sync.WaitGroup
	for i := range builds {
		wg.Go(func() {
			opts := sidecar.PlanOptions{ProductImage: sidecar.ProductImage{Reference: fmt.Sprintf("product:%d", i)}}
			if i%2 == 1 {
				opts.Disabled = []string{"exporter"}
			}
			plan, err := reg.Plan(opts)
			if err != nil {
				errs[i] = err
				return
			}
			spec := &corev1.PodSpec{}
			errs[i] = plan.Inject(spec, builders.PodTarget{})
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

	// A plan without an image sees none of the builds' images.
	spec := &corev1.PodSpec{}
	require.NoError(t, mustPlan(t, reg, sidecar.PlanOptions{}).Inject(spec, builders.PodTarget{}))
	if diff := cmp.Diff([]corev1.Container{{Name: "exporter"}, {Name: "agent"}}, spec.Containers); diff != "" {
		t.Errorf("the registry changed by its plans (-want +got):\n%s", diff)
	}
}

func TestProductImageReachesExtraProviders(t *testing.T) {
	reg, err := sidecar.NewRegistry()
	require.NoError(t, err)
	plan := mustPlan(t, reg, sidecar.PlanOptions{ProductImage: sidecar.ProductImage{Reference: "product:1"},
		Extra: []sidecar.Provider{&stubProvider{name: "late"}}})
	spec := &corev1.PodSpec{}
	require.NoError(t, plan.Inject(spec, builders.PodTarget{}))
	if diff := cmp.Diff([]corev1.Container{{Name: "late", Image: "product:1"}}, spec.Containers); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNilPlanDoesNothing(t *testing.T) {
	var plan *sidecar.Plan
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}}
	require.NoError(t, plan.Inject(spec, builders.PodTarget{}))
	require.Empty(t, plan.Requirements(builders.PodTarget{}))
	require.Empty(t, plan.Names())
	require.Equal(t, []string{"main"}, containerNames(spec))
}
