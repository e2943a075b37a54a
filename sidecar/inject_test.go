package sidecar_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
)

func TestInjectIsAllOrNothing(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		providers []sidecar.Provider
		wantErr   error
		provider  string
	}{
		{name: "a later provider fails", providers: []sidecar.Provider{&stubProvider{name: "a"}, &stubProvider{name: "b", fail: boom}},
			wantErr: boom, provider: "b"},
		{name: "a provider reuses the main container's name", providers: []sidecar.Provider{&stubProvider{name: "a"}, &stubProvider{name: "main"}},
			wantErr: &sidecar.ConflictError{Kind: "container", Name: "main"}, provider: "main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := sidecar.NewRegistry(tt.providers...)
			require.NoError(t, err)
			spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}}
			orig := spec.DeepCopy()
			err = mustPlan(t, reg, sidecar.PlanOptions{}).Inject(spec, builders.PodTarget{MainContainer: "main"})
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
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
			require.Equal(t, "sidecars["+tt.provider+"]", failure.FieldOf(err))
		})
	}
}

// directAppender appends without the helpers, so only the plan's own check
// can catch its collision.
type directAppender struct{ stubProvider }

func (d *directAppender) Inject(spec *corev1.PodSpec, _ builders.PodTarget) error {
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: "data"})
	return nil
}

func TestInjectCatchesCollisionsOfProvidersThatBypassTheHelpers(t *testing.T) {
	reg, err := sidecar.NewRegistry(&directAppender{stubProvider{name: "raw"}})
	require.NoError(t, err)
	spec := &corev1.PodSpec{Volumes: []corev1.Volume{{Name: "data"}}}
	err = mustPlan(t, reg, sidecar.PlanOptions{}).Inject(spec, builders.PodTarget{})
	var cerr *sidecar.ConflictError
	require.ErrorAs(t, err, &cerr)
	if diff := cmp.Diff(sidecar.ConflictError{Kind: "volume", Name: "data"}, *cerr); diff != "" {
		t.Errorf("conflict (-want +got):\n%s", diff)
	}
}
