package generators_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    []string
		wantErr string
	}{
		{"documents in order, empty ones skipped", "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n# nothing\n---\n\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b}\nspec: {replicas: 2}\n",
			[]string{"v1/ConfigMap/a", "apps/v1/Deployment/b"}, ""},
		{"integers stay integers", "apiVersion: v1\nkind: X\nmetadata: {name: nn}\nspec: {count: 3}\n", []string{"v1/X/nn"}, ""},
		{"no kind", "apiVersion: v1\nmetadata: {name: a}\n", nil, "document 1"},
		{"no apiVersion", "apiVersion: v1\nkind: A\n---\nkind: ConfigMap\n", nil, "document 2: apiVersion is missing"},
		{"not YAML", "apiVersion: v1\nkind: [\n", nil, "document 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			us, err := generators.Decode("templates/x.yaml", []byte(tt.data))
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				require.ErrorContains(t, err, "template templates/x.yaml")
				require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
				return
			}
			require.NoError(t, err)
			var got []string
			for _, u := range us {
				got = append(got, u.GetAPIVersion()+"/"+u.GetKind()+"/"+u.GetName())
				if n, ok := u.Object["spec"].(map[string]any); ok {
					for _, v := range n {
						require.IsType(t, int64(0), v)
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
