package helm_test

import (
	"maps"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const reconciler = "shop.example.com"

// staticDiscovery answers discovery from fixed data.
type staticDiscovery struct {
	version   version.Info
	resources []*metav1.APIResourceList
}

func (d staticDiscovery) ServerVersion() (*version.Info, error) { return &d.version, nil }

func (d staticDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return nil, d.resources, nil
}

var cluster = staticDiscovery{
	version: version.Info{Major: "1", Minor: "37", GitVersion: "v1.37.2"},
	resources: []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Kind: "ConfigMap"}}},
		{GroupVersion: "policy/v1", APIResources: []metav1.APIResource{{Kind: "PodDisruptionBudget"}}},
	},
}

// summary is "Kind/name" followed by the reconciler's annotations, sorted.
func summary(objects []client.Object) []string {
	out := make([]string, len(objects))
	for i, o := range objects {
		s := o.GetObjectKind().GroupVersionKind().Kind + "/" + o.GetName()
		ann := o.GetAnnotations()
		for _, k := range slices.Sorted(maps.Keys(ann)) {
			if rest, ok := strings.CutPrefix(k, reconciler+"/"); ok {
				s += " " + rest + "=" + ann[k]
			}
		}
		out[i] = s
	}
	return out
}

// find returns the object of kind named name, or nil.
func find(objects []client.Object, kind, name string) *unstructured.Unstructured {
	for _, o := range objects {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && o.GetName() == name {
			return o.(*unstructured.Unstructured)
		}
	}
	return nil
}
