package deploy_test

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// manifests are the objects a kustomization builds to, in the order
// kubectl apply -k sends them.
type manifests []*unstructured.Unstructured

// build builds the kustomization in dir as kubectl kustomize does (no
// plugins, files from below each kustomization's root only), in
// kustomize's legacy order: Namespaces and CRDs first.
func build(t *testing.T, dir string) manifests {
	t.Helper()
	opts := krusty.MakeDefaultOptions()
	opts.Reorder = krusty.ReorderOptionLegacy
	resources, err := krusty.MakeKustomizer(opts).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	var out manifests
	for _, r := range resources.Resources() {
		data, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(data); err != nil {
			t.Fatalf("%s: %v", r.CurId(), err)
		}
		out = append(out, u)
	}
	return out
}

// ofKind returns the objects of kind.
func (m manifests) ofKind(kind string) manifests {
	var out manifests
	for _, u := range m {
		if u.GetKind() == kind {
			out = append(out, u)
		}
	}
	return out
}

// one returns the only object of kind, decoded into into, failing the
// test when there is not exactly one.
func (m manifests) one(t *testing.T, kind string, into any) {
	t.Helper()
	objs := m.ofKind(kind)
	if len(objs) != 1 {
		t.Fatalf("%d objects of kind %s, want 1", len(objs), kind)
	}
	decode(t, objs[0], into)
}

// names returns "Kind namespace/name" of each object, sorted.
func (m manifests) names() []string {
	var out []string
	for _, u := range m {
		out = append(out, u.GetKind()+" "+u.GetNamespace()+"/"+u.GetName())
	}
	slices.Sort(out)
	return out
}

func decode(t *testing.T, u *unstructured.Unstructured, into any) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, into, true); err != nil {
		t.Fatalf("decoding %s %s: %v", u.GetKind(), u.GetName(), err)
	}
}

// deployment returns the operator's Deployment and its manager container.
func (m manifests) deployment(t *testing.T) (*appsv1.Deployment, corev1.Container) {
	t.Helper()
	d := &appsv1.Deployment{}
	m.one(t, "Deployment", d)
	containers := d.Spec.Template.Spec.Containers
	if len(containers) != 1 {
		t.Fatalf("the Deployment has %d containers, want 1", len(containers))
	}
	return d, containers[0]
}
