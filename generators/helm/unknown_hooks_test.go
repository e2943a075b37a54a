package helm_test

import (
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
)

// TestUnknownHookEventsAreLeftOutAsHelmDoes: helm template leaves out an
// object whose helm.sh/hook names an event it does not know and renders
// the rest of the chart; the generator leaves out the same objects, and
// says so in a warning for each.
func TestUnknownHookEventsAreLeftOutAsHelmDoes(t *testing.T) {
	fsys := os.DirFS("testdata/unknown-hooks")
	want := helmTemplate(t, fsys, "rel", "ns")
	require.Equal(t, []string{"ConfigMap/app", "ConfigMap/setup", "ConfigMap/spelled-loosely"}, want, "helm template")

	g, err := helm.New(fsys, ".", helm.Options{})
	require.NoError(t, err)
	var warnings []generators.Warning
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler,
		OnWarning: func(w generators.Warning) { warnings = append(warnings, w) }})
	objects, err := g.Generate(ctx, "ns", "rel", nil)
	require.NoError(t, err)

	var got []string
	for _, o := range objects {
		got = append(got, o.GetObjectKind().GroupVersionKind().Kind+"/"+o.GetName())
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("helm template (-) and the generator (+) differ:\n%s", diff)
	}

	warning := func(name, value, event string) generators.Warning {
		return generators.Warning{
			Reason: helm.ReasonUnknownHookEvent,
			Author: failure.AuthorOperator,
			Source: "unknown-hooks/templates/hooks.yaml",
			Object: corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Name: name},
			Message: "ConfigMap " + name + " of unknown-hooks/templates/hooks.yaml is left out, as Helm leaves it out: " +
				`its helm.sh/hook annotation "` + value + `" names the event "` + event + `", which Helm does not know`,
		}
	}
	wantWarnings := []generators.Warning{
		warning("typo", "pre-instal", "pre-instal"),
		warning("partly-known", "pre-install,post-instal", "post-instal"),
	}
	if diff := cmp.Diff(wantWarnings, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
