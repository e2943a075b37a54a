package sidecar_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/testkit"
)

// env is the API server shared by the tests that read objects.
var env = &testkit.Env{}

func TestMain(m *testing.M) { env.Main(m) }

// stubProvider adds one container named after itself and, when image is
// set, runs it; it requires the Secret named by secret, if any.
type stubProvider struct {
	name   string
	phase  sidecar.Phase
	image  string
	secret string
	fail   error
}

func (s *stubProvider) Name() string         { return s.name }
func (s *stubProvider) Phase() sidecar.Phase { return s.phase }

func (s *stubProvider) Inject(spec *corev1.PodSpec, _ sidecar.Target) error {
	if s.fail != nil {
		return s.fail
	}
	return sidecar.AddContainer(spec, corev1.Container{Name: s.name, Image: s.image})
}

func (s *stubProvider) Validate(ctx context.Context, r client.Reader, t sidecar.Target) error {
	if s.secret == "" {
		return nil
	}
	return sidecar.RequireSecret(ctx, r, t.Scope.Namespace, s.secret, "spec.credentialsSecret", "password")
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
