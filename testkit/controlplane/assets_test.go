package controlplane_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// A directory built by `make k8s-assets` keeps a record of each file; a
// file whose build did not finish (no record, or truncated below its
// recorded size) is reported and never run, while a directory without any
// record, filled by other means, is taken as it is.
func TestIncompleteAssetsAreRefused(t *testing.T) {
	write := func(t *testing.T, dir, name, content string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755))
	}
	tests := []struct {
		name           string
		files          map[string]string
		wantIncomplete []string
	}{
		{
			name:  "no records: a directory filled by hand",
			files: map[string]string{"etcd": "12345", "kube-apiserver": "12345"},
		},
		{
			name: "both recorded and whole",
			files: map[string]string{
				"etcd": "12345", ".stamps/etcd": "from x\nsize 5\n",
				"kube-apiserver": "123", ".stamps/kube-apiserver": "from y\nsize 3\n",
			},
		},
		{
			name: "one truncated, one never finished",
			files: map[string]string{
				"etcd": "12", ".stamps/etcd": "from x\nsize 5\n",
				"kube-apiserver": "123", ".stamps/other": "",
			},
			wantIncomplete: []string{
				"etcd (2 bytes, its build recorded 5)",
				"kube-apiserver (no record of a finished build)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				write(t, dir, name, content)
			}
			err := controlplane.Options{AssetsDir: dir}.CheckAssets()
			if tt.wantIncomplete == nil {
				require.NoError(t, err)
				return
			}
			var ae *controlplane.AssetsError
			require.ErrorAs(t, err, &ae)
			if diff := cmp.Diff(tt.wantIncomplete, ae.Incomplete); diff != "" {
				t.Errorf("incomplete (-want +got):\n%s", diff)
			}
			require.Empty(t, ae.Missing)
			require.Contains(t, err.Error(), "make k8s-assets")
		})
	}
}
