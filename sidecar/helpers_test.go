package sidecar_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
)

// stubProvider adds one container named after itself and, when image is
// set, runs it; it requires the Secret named by secret, if any, as a user
// field names it.
type stubProvider struct {
	name   string
	phase  sidecar.Phase
	image  string
	secret string
	fail   error
}

func (s *stubProvider) Name() string         { return s.name }
func (s *stubProvider) Phase() sidecar.Phase { return s.phase }

func (s *stubProvider) Inject(spec *corev1.PodSpec, _ builders.PodTarget) error {
	if s.fail != nil {
		return s.fail
	}
	return sidecar.AddContainer(spec, corev1.Container{Name: s.name, Image: s.image})
}

func (s *stubProvider) Requirements(t builders.PodTarget) []sidecar.Requirement {
	if s.secret == "" {
		return nil
	}
	return []sidecar.Requirement{{Kind: sidecar.KindSecret, Namespace: t.Scope.Namespace, Name: s.secret,
		Keys: []string{"password"}, Field: "spec.credentialsSecret", NamedBy: failure.AuthorUser}}
}

func (s *stubProvider) WithProductImage(image sidecar.ProductImage) sidecar.Provider {
	c := *s
	c.image = image.Reference
	return &c
}

// containerNames returns the names of spec's containers in order.
func containerNames(spec *corev1.PodSpec) []string {
	var names []string
	for _, c := range spec.Containers {
		names = append(names, c.Name)
	}
	return names
}

// mustPlan returns reg's plan for opts.
func mustPlan(t *testing.T, reg *sidecar.Registry, opts sidecar.PlanOptions) *sidecar.Plan {
	t.Helper()
	p, err := reg.Plan(opts)
	require.NoError(t, err)
	return p
}
