package helm_test

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
)

// hookChart is a chart whose only template is a ConfigMap with the given
// annotations.
func hookChart(annotations string) fstest.MapFS {
	return fstest.MapFS{
		"Chart.yaml":          {Data: []byte("apiVersion: v2\nname: hooks\nversion: 0.1.0\n")},
		"templates/hook.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: h\n  annotations:\n" + annotations)},
	}
}

func TestHookMapping(t *testing.T) {
	tests := []struct {
		name        string
		annotations string
		revision    int64
		want        []string
	}{
		{"pre-install", `    helm.sh/hook: pre-install` + "\n", 1,
			[]string{"ConfigMap/h apply-order=-16384 reconcile-policy=once update-policy=recreate"}},
		{"post-install, weight, both delete policies", "    helm.sh/hook: post-install\n    helm.sh/hook-weight: \"-7\"\n    helm.sh/hook-delete-policy: hook-succeeded, before-hook-creation\n", 1,
			[]string{"ConfigMap/h apply-order=16377 purge-order=16377 reconcile-policy=once update-policy=recreate"}},
		{"hook-succeeded alone keeps the update policy", "    helm.sh/hook: pre-upgrade,pre-install\n    helm.sh/hook-delete-policy: hook-succeeded\n", 2,
			[]string{"ConfigMap/h apply-order=-16384 purge-order=-16384 reconcile-policy=on-object-or-component-change"}},
		{"extreme weights", "    helm.sh/hook: pre-install\n    helm.sh/hook-weight: \"-16383\"\n", 1,
			[]string{"ConfigMap/h apply-order=-32767 reconcile-policy=once update-policy=recreate"}},
		{"pre-install, post-upgrade: pre wave on install", "    helm.sh/hook: pre-install,post-upgrade\n", 1,
			[]string{"ConfigMap/h apply-order=-16384 reconcile-policy=on-object-or-component-change update-policy=recreate"}},
		{"pre-install, post-upgrade: post wave on upgrade", "    helm.sh/hook: pre-install,post-upgrade\n", 5,
			[]string{"ConfigMap/h apply-order=16384 reconcile-policy=on-object-or-component-change update-policy=recreate"}},
		{"upgrade-only hook is left out on install", "    helm.sh/hook: pre-upgrade\n", 1, nil},
		{"test hook is left out", "    helm.sh/hook: test\n", 2, nil},
		{"rollback hook is left out", "    helm.sh/hook: post-rollback\n", 2, nil},
		{"rollback part ignored", "    helm.sh/hook: post-install,pre-rollback\n", 1,
			[]string{"ConfigMap/h apply-order=16384 reconcile-policy=once update-policy=recreate"}},
		{"keep", "    helm.sh/resource-policy: keep\n", 1, []string{"ConfigMap/h delete-policy=orphan"}},
		{"other resource policy", "    helm.sh/resource-policy: delete\n", 1, []string{"ConfigMap/h"}},
		{"the template's own equal annotation is fine", "    helm.sh/hook: pre-install\n    shop.example.com/apply-order: \"-16384\"\n", 1,
			[]string{"ConfigMap/h apply-order=-16384 reconcile-policy=once update-policy=recreate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := helm.New(hookChart(tt.annotations), ".", helm.Options{})
			require.NoError(t, err)
			ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler, Revision: tt.revision})
			objects, err := g.Generate(ctx, "ns", "rel", nil)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, summary(objects), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestHookRefusals(t *testing.T) {
	tests := []struct {
		name        string
		annotations string
		message     string
	}{
		{"pre-delete", "    helm.sh/hook: pre-delete\n", "pre-delete hooks are not supported"},
		{"post-delete among others", "    helm.sh/hook: post-install,post-delete\n", "post-delete hooks are not supported"},
		{"hook-failed", "    helm.sh/hook: post-install\n    helm.sh/hook-delete-policy: hook-failed\n", "hook-failed is not supported"},
		{"unknown delete policy", "    helm.sh/hook: pre-install\n    helm.sh/hook-delete-policy: always\n", `unknown policy "always"`},
		{"weight not a number", "    helm.sh/hook: pre-install\n    helm.sh/hook-weight: heavy\n", `"heavy" is not an integer in [-16383, 16383]`},
		{"weight out of range", "    helm.sh/hook: pre-install\n    helm.sh/hook-weight: \"16384\"\n", `"16384" is not an integer`},
		{"conflicting annotation", "    helm.sh/hook: pre-install\n    shop.example.com/reconcile-policy: on-object-change\n",
			`annotation shop.example.com/reconcile-policy is "on-object-change", but its Helm annotations make it "once"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := helm.New(hookChart(tt.annotations), ".", helm.Options{})
			require.NoError(t, err)
			ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler})
			_, err = g.Generate(ctx, "ns", "rel", nil)
			var te *generators.TemplateError
			require.ErrorAs(t, err, &te)
			if diff := cmp.Diff([]any{"hooks/templates/hook.yaml", failure.ClassInvalid, failure.AuthorOperator},
				[]any{te.Template, failure.ClassOf(err), failure.AuthorOf(err)}); diff != "" {
				t.Errorf("error %v (-want +got):\n%s", err, diff)
			}
			require.ErrorContains(t, err, tt.message)
		})
	}
}

func TestHooksNeedTheReconcilerName(t *testing.T) {
	g, err := helm.New(hookChart("    helm.sh/hook: pre-install\n"), ".", helm.Options{})
	require.NoError(t, err)
	_, err = g.Generate(t.Context(), "ns", "rel", nil)
	var ce *generators.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "Environment.ReconcilerName", failure.FieldOf(err))
}
