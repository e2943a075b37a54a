package kustomize_test

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/generators/kustomize"
)

// TestSameOutputAsKubectlKustomize renders trees without template actions,
// which the template pass leaves as they are, and wants exactly what
// kustomize gives for them: the same objects, in the same order.
func TestSameOutputAsKubectlKustomize(t *testing.T) {
	tests := []struct {
		name string
		dir  string
	}{
		// kustomize sorts its output (Namespace, ServiceAccount, ConfigMap,
		// Service, Deployment) unless the kustomization says otherwise.
		{"legacy order by default", "legacy-order"},
		// sortOptions in the kustomization keep the resources' order.
		{"sortOptions fifo", "fifo-order"},
		// Text a manifest holds is kept, even what text/template prints
		// for a missing value.
		{"literal <no value>", "no-value"},
	}
	fsys := os.DirFS("testdata/conformance")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := kubectlKustomize(t, fsys, tt.dir)
			require.NoError(t, err)
			require.NotEmpty(t, want)

			g, err := kustomize.New(fsys, tt.dir, kustomize.Options{})
			require.NoError(t, err)
			objects, err := g.Generate(t.Context(), "shop", "web", nil)
			require.NoError(t, err)
			if diff := cmp.Diff(want, contents(t, objects)); diff != "" {
				t.Errorf("kubectl kustomize (-) and the generator (+) differ:\n%s", diff)
			}
		})
	}
}
