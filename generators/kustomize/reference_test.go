package kustomize_test

import (
	"io/fs"
	"path"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/opkit-dev/opkit/generators"
)

// kubectlKustomize is the reference: it runs krusty on the tree at dir of
// fsys with the options `kubectl kustomize <dir>` (and `kustomize build`)
// use when given no flags, and returns its output as objects.
func kubectlKustomize(t *testing.T, fsys fs.FS, dir string) ([]map[string]any, error) {
	t.Helper()
	const root = "/reference"
	mem := filesys.MakeFsInMemory()
	sub, err := fs.Sub(fsys, dir)
	require.NoError(t, err)
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		return mem.WriteFile(path.Join(root, p), data)
	})
	require.NoError(t, err)

	opts := &krusty.Options{
		Reorder:           krusty.ReorderOptionUnspecified, // no --reorder flag
		AddManagedbyLabel: false,
		LoadRestrictions:  types.LoadRestrictionsRootOnly, // --load-restrictor's default
		PluginConfig:      types.DisabledPluginConfig(),   // no --enable-alpha-plugins, no --enable-helm
	}
	m, err := krusty.MakeKustomizer(opts).Run(mem, root)
	if err != nil {
		return nil, err
	}
	out, err := m.AsYaml()
	require.NoError(t, err)
	us, err := generators.Decode("kustomize output", out)
	require.NoError(t, err)
	objects := make([]map[string]any, len(us))
	for i, u := range us {
		objects[i] = u.Object
	}
	return objects, nil
}

// contents returns the objects' contents, in order.
func contents(t *testing.T, objects []client.Object) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(objects))
	for i, o := range objects {
		u, ok := o.(*unstructured.Unstructured)
		require.True(t, ok, "object %d is a %T", i, o)
		out[i] = u.Object
	}
	return out
}
