package generators_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

func named(names ...string) generators.Generator {
	return generators.GeneratorFunc(func(_ context.Context, ns, _ string, _ map[string]any) ([]client.Object, error) {
		var out []client.Object
		for _, n := range names {
			cm := &corev1.ConfigMap{}
			cm.Namespace, cm.Name = ns, n
			out = append(out, cm)
		}
		return out, nil
	})
}

func TestConcatKeepsOrderAndStopsAtTheFirstFailure(t *testing.T) {
	objs, err := generators.Concat(named("a", "b"), named("c")).Generate(context.Background(), "ns", "x", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = append(got, o.GetName())
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, got); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}

	bad := generators.GeneratorFunc(func(context.Context, string, string, map[string]any) ([]client.Object, error) {
		return nil, failure.Invalid(failure.AuthorUser, "spec.replicas", "must be positive")
	})
	_, err = generators.Concat(named("a"), bad, named("never")).Generate(context.Background(), "ns", "x", nil)
	if err == nil || err.Error() != "generator 2 of 3: spec.replicas: must be positive" || !errors.Is(err, failure.ErrInvalid) {
		t.Errorf("error %v: want the second generator's failure, class kept", err)
	}
}
