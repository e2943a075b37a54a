package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

func TestConfigMapLayersOverridesOverTheProduct(t *testing.T) {
	scope := testScope()
	got, err := NewConfigMap(scope).WithData(map[string]string{"raw.txt": "x"}).
		WithConfigFile(ConfigFile{
			Name:    "zoo.properties",
			Entries: map[string]string{"b": "2", "a": "1", "c": "product"},
			Overrides: []ConfigOverride{
				{Layer: commonsv1alpha1.LayerRole, Entries: map[string]string{"c": "role", "d": "role"}},
				{Layer: commonsv1alpha1.LayerRoleGroup, Entries: map[string]string{"d": "group"}},
			},
		}).Build()
	require.NoError(t, err)
	want := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: "prod-server-default", Namespace: "ns", Labels: scope.Labels()},
		Data:       map[string]string{"raw.txt": "x", "zoo.properties": "a=1\nb=2\nc=role\nd=group\n"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ConfigMap (-want +got):\n%s", diff)
	}
}

// TestConfigMapReportsEveryErrorNamingItsAuthor: every entry a format
// cannot hold is reported, and each names who wrote it: the product's
// entries are the operator's, the overrides the user's, at their layer.
func TestConfigMapReportsEveryErrorNamingItsAuthor(t *testing.T) {
	type blame struct {
		Author  failure.Author
		Message string
	}
	_, err := NewConfigMap(testScope()).
		WithConfigFile(ConfigFile{
			Name:    "settings.ini",
			Entries: map[string]string{"ok": "1", "[product": "x"},
			Overrides: []ConfigOverride{
				{Layer: commonsv1alpha1.LayerRole, Entries: map[string]string{"a=b": "role"}},
				{Layer: commonsv1alpha1.LayerRoleGroup, Entries: map[string]string{"multi": "two\nlines"}},
			},
		}).
		WithConfigFile(ConfigFile{Name: "app.env", Overrides: []ConfigOverride{
			{Layer: commonsv1alpha1.LayerRoleGroup, Entries: map[string]string{"not-a-name": "x", "OK": "y"}},
		}}).
		WithConfigFile(ConfigFile{Name: "user.toml", Overrides: []ConfigOverride{
			{Layer: commonsv1alpha1.LayerRole, Entries: map[string]string{"k": "v"}},
		}}).
		WithConfigFile(ConfigFile{Name: "product.toml", Entries: map[string]string{"k": "v"}}).
		Build()
	require.ErrorIs(t, err, failure.ErrInvalid)
	ini := `cannot be an INI key: it is empty, holds "=" or a line break, starts with "[" or has surrounding spaces`
	want := []blame{
		{failure.AuthorOperator, "configFiles[settings.ini][[product]: " + ini},
		{failure.AuthorUser, "spec.roles.server.configOverrides[settings.ini][a=b]: " + ini},
		{failure.AuthorUser, "spec.roles.server.roleGroups.default.configOverrides[settings.ini][multi]: the value has a line break, which INI cannot hold"},
		{failure.AuthorUser, "spec.roles.server.roleGroups.default.configOverrides[app.env][not-a-name]: is not an environment variable name"},
		{failure.AuthorUser, `spec.roles.server.configOverrides[user.toml]: no renderer for files ending in ".toml"`},
		{failure.AuthorOperator, `configFiles[product.toml]: no renderer for files ending in ".toml"`},
	}
	var got []blame
	for _, e := range flatten(err) {
		got = append(got, blame{failure.AuthorOf(e), e.Error()})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestConfigMapFileWrittenTwice(t *testing.T) {
	_, err := NewConfigMap(testScope()).WithData(map[string]string{"a.properties": ""}).
		WithConfigFile(ConfigFile{Name: "a.properties"}).
		WithConfigFile(ConfigFile{Name: "b.yaml"}).WithConfigFile(ConfigFile{Name: "b.yaml"}).Build()
	want := []string{"configFiles[a.properties]: the file is written twice", "configFiles[b.yaml]: the file is written twice"}
	if diff := cmp.Diff(want, messages(t, err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
