package helm_test

import (
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"helm.sh/helm/v4/pkg/chart/common"
	commonutil "helm.sh/helm/v4/pkg/chart/common/util"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/engine"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
)

// helmTemplate is the reference: it renders the chart at the root of fsys
// as `helm template <release> . --namespace <namespace>` does (an install
// with Helm's default capabilities: Helm's loader, values, engine and
// manifest sorter, as the install action runs them) and returns
// "Kind/name" of every object it prints, hooks included, sorted.
func helmTemplate(t *testing.T, fsys fs.FS, release, namespace string) []string {
	t.Helper()
	var files []*archive.BufferedFile
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		files = append(files, &archive.BufferedFile{Name: p, Data: data})
		return err
	})
	require.NoError(t, err)
	ch, err := loader.LoadFiles(files)
	require.NoError(t, err)
	values, err := commonutil.ToRenderValues(ch, map[string]any{},
		common.ReleaseOptions{Name: release, Namespace: namespace, Revision: 1, IsInstall: true}, common.DefaultCapabilities)
	require.NoError(t, err)
	rendered, err := engine.Render(ch, values)
	require.NoError(t, err)
	maps.DeleteFunc(rendered, func(p, _ string) bool { return strings.HasSuffix(p, "NOTES.txt") })
	hooks, manifests, err := releaseutil.SortManifests(rendered, nil, releaseutil.InstallOrder)
	require.NoError(t, err)

	var out []string
	for _, h := range hooks {
		out = append(out, h.Kind+"/"+h.Name)
	}
	for _, m := range manifests {
		out = append(out, m.Head.Kind+"/"+m.Head.Metadata.Name)
	}
	slices.Sort(out)
	return out
}
