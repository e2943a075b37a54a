package generators_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/generators"
)

// configMaps renders one ConfigMap per parameter key "names".
var configMaps = generators.GeneratorFunc(func(_ context.Context, namespace, _ string, p map[string]any) ([]client.Object, error) {
	var out []client.Object
	for _, n := range p["names"].([]string) {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("v1")
		u.SetKind("ConfigMap")
		u.SetNamespace(namespace)
		u.SetName(n)
		out = append(out, u)
	}
	return out, nil
})

func appendName(suffix string) generators.ParameterTransformer {
	return generators.ParameterTransformerFunc(func(_ context.Context, _, _ string, p map[string]any) (map[string]any, error) {
		names := append([]string(nil), p["names"].([]string)...)
		return map[string]any{"names": append(names, suffix)}, nil
	})
}

func label(key, value string) generators.ObjectTransformer {
	return generators.ObjectTransformerFunc(func(_ context.Context, _, name string, objects []client.Object) ([]client.Object, error) {
		for _, o := range objects {
			l := o.GetLabels()
			if l == nil {
				l = map[string]string{}
			}
			l[key] = value + "-" + l[key] + name
			o.SetLabels(l)
		}
		return objects, nil
	})
}

func TestTransformRunsInOrderAndNests(t *testing.T) {
	inner := generators.Transform(configMaps,
		[]generators.ParameterTransformer{appendName("b"), appendName("c")},
		[]generators.ObjectTransformer{label("k", "1")})
	outer := generators.Transform(inner,
		[]generators.ParameterTransformer{appendName("a")},
		[]generators.ObjectTransformer{label("k", "2")})

	input := map[string]any{"names": []string{"x"}}
	objects, err := outer.Generate(t.Context(), "ns", "c", input)
	require.NoError(t, err)

	var got []string
	for _, o := range objects {
		got = append(got, o.GetName()+":"+o.GetLabels()["k"])
	}
	// Parameters: outer first (a), then inner in order (b, c); objects:
	// inner first (1), then outer (2).
	want := []string{"x:2-1-cc", "a:2-1-cc", "b:2-1-cc", "c:2-1-cc"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	require.Equal(t, []string{"x"}, input["names"], "input parameters changed")
}

func TestTransformStopsAtTheFirstError(t *testing.T) {
	boom := errors.New("boom")
	called := false
	g := generators.Transform(
		generators.GeneratorFunc(func(context.Context, string, string, map[string]any) ([]client.Object, error) {
			called = true
			return nil, nil
		}),
		[]generators.ParameterTransformer{generators.ParameterTransformerFunc(
			func(context.Context, string, string, map[string]any) (map[string]any, error) { return nil, boom })},
		nil)
	_, err := g.Generate(t.Context(), "ns", "n", nil)
	require.ErrorIs(t, err, boom)
	require.False(t, called, "generator ran after a failed parameter transformer")
}

func ExampleTransform() {
	g := generators.Transform(configMaps,
		[]generators.ParameterTransformer{appendName("extra")},
		[]generators.ObjectTransformer{label("tier", "web")})
	objects, _ := g.Generate(context.Background(), "shop", "front", map[string]any{"names": []string{"main"}})
	for _, o := range objects {
		fmt.Println(o.GetNamespace(), o.GetName(), o.GetLabels())
	}
	// Output:
	// shop main map[tier:web-front]
	// shop extra map[tier:web-front]
}
