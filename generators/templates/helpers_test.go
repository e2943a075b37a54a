package templates_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// staticDiscovery answers discovery from fixed data.
type staticDiscovery struct {
	version   version.Info
	resources []*metav1.APIResourceList
}

func (d staticDiscovery) ServerVersion() (*version.Info, error) { return &d.version, nil }

func (d staticDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return nil, d.resources, nil
}

var discovery = staticDiscovery{
	version: version.Info{Major: "1", Minor: "37", GitVersion: "v1.37.2"},
	resources: []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Kind: "ConfigMap"}, {Kind: "Secret"}}},
		{GroupVersion: "policy/v1", APIResources: []metav1.APIResource{{Kind: "PodDisruptionBudget"}}},
	},
}

// objectsYAML parses the expected objects.
func objectsYAML(t *testing.T, docs ...string) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(docs))
	for i, d := range docs {
		u := &unstructured.Unstructured{}
		js, err := yaml.YAMLToJSON([]byte(d))
		require.NoError(t, err)
		require.NoError(t, u.UnmarshalJSON(js))
		out[i] = u.Object
	}
	return out
}

// contents returns the objects' content for comparison.
func contents(objects []client.Object) []map[string]any {
	out := make([]map[string]any, len(objects))
	for i, o := range objects {
		out[i] = o.(*unstructured.Unstructured).Object
	}
	return out
}
