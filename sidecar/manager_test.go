package sidecar_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

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
		name  string
		order []string
	}{
		{name: "alphabetical", order: []string{"aardvark", "audit", "certs", "jmx", "vector"}},
		{name: "reversed", order: []string{"vector", "jmx", "certs", "audit", "aardvark"}},
		{name: "mixed", order: []string{"jmx", "aardvark", "vector", "certs", "audit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sidecar.NewManager()
			for _, name := range tt.order {
				require.NoError(t, m.Register(providers[name]))
			}
			spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}}
			require.NoError(t, m.Inject(spec, sidecar.Target{MainContainer: "main"}))
			if diff := cmp.Diff(want, containerNames(spec)); diff != "" {
				t.Errorf("container order (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want[1:], m.Names()); diff != "" {
				t.Errorf("Names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDisabledProvidersAreSkippedUntilEnabled(t *testing.T) {
	m := sidecar.NewManager()
	require.NoError(t, m.Register(&stubProvider{name: "a"}))
	require.NoError(t, m.Register(&stubProvider{name: "b"}))
	require.NoError(t, m.Disable("a"))
	require.False(t, m.Enabled("a"))

	spec := &corev1.PodSpec{}
	require.NoError(t, m.Inject(spec, sidecar.Target{}))
	if diff := cmp.Diff([]string{"b"}, containerNames(spec)); diff != "" {
		t.Errorf("with a disabled (-want +got):\n%s", diff)
	}

	require.NoError(t, m.Enable("a"))
	spec = &corev1.PodSpec{}
	require.NoError(t, m.Inject(spec, sidecar.Target{}))
	if diff := cmp.Diff([]string{"a", "b"}, containerNames(spec)); diff != "" {
		t.Errorf("with a enabled again (-want +got):\n%s", diff)
	}
}

func TestRegistrationErrors(t *testing.T) {
	tests := []struct {
		name string
		do   func(m *sidecar.Manager) error
		want string
	}{
		{name: "duplicate name", do: func(m *sidecar.Manager) error { return m.Register(&stubProvider{name: "a"}) },
			want: `sidecar provider "a": is already registered`},
		{name: "empty name", do: func(m *sidecar.Manager) error { return m.Register(&stubProvider{}) },
			want: `sidecar provider "": has an empty name`},
		{name: "unknown phase", do: func(m *sidecar.Manager) error { return m.Register(&stubProvider{name: "x", phase: 7}) },
			want: `sidecar provider "x": has unknown phase(7)`},
		{name: "enable unknown", do: func(m *sidecar.Manager) error { return m.Enable("nope") },
			want: `sidecar provider "nope": is not registered`},
		{name: "disable unknown", do: func(m *sidecar.Manager) error { return m.Disable("nope") },
			want: `sidecar provider "nope": is not registered`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sidecar.NewManager()
			require.NoError(t, m.Register(&stubProvider{name: "a"}))
			err := tt.do(m)
			var rerr *sidecar.RegistrationError
			require.ErrorAs(t, err, &rerr)
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInjectIsAllOrNothing(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		providers []*stubProvider
		wantErr   error
		provider  string
	}{
		{name: "a later provider fails", providers: []*stubProvider{{name: "a"}, {name: "b", fail: boom}}, wantErr: boom, provider: "b"},
		{name: "a provider reuses the main container's name", providers: []*stubProvider{{name: "a"}, {name: "main"}},
			wantErr: &sidecar.ConflictError{Kind: "container", Name: "main"}, provider: "main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sidecar.NewManager()
			for _, p := range tt.providers {
				require.NoError(t, m.Register(p))
			}
			spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}}
			orig := spec.DeepCopy()
			err := m.Inject(spec, sidecar.Target{MainContainer: "main"})
			var ierr *sidecar.InjectError
			require.ErrorAs(t, err, &ierr)
			if diff := cmp.Diff(tt.provider, ierr.Provider); diff != "" {
				t.Errorf("provider (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantErr.Error(), ierr.Err.Error()); diff != "" {
				t.Errorf("cause (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(orig, spec); diff != "" {
				t.Errorf("spec changed by a failed injection (-before +after):\n%s", diff)
			}
		})
	}
}

// directAppender appends without the helpers, so only the manager's own
// check can catch its collision.
type directAppender struct{ stubProvider }

func (d *directAppender) Inject(spec *corev1.PodSpec, _ sidecar.Target) error {
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: "data"})
	return nil
}

func TestInjectCatchesCollisionsOfProvidersThatBypassTheHelpers(t *testing.T) {
	m := sidecar.NewManager()
	require.NoError(t, m.Register(&directAppender{stubProvider{name: "raw"}}))
	spec := &corev1.PodSpec{Volumes: []corev1.Volume{{Name: "data"}}}
	err := m.Inject(spec, sidecar.Target{})
	var cerr *sidecar.ConflictError
	require.ErrorAs(t, err, &cerr)
	if diff := cmp.Diff(sidecar.ConflictError{Kind: "volume", Name: "data"}, *cerr); diff != "" {
		t.Errorf("conflict (-want +got):\n%s", diff)
	}
}
