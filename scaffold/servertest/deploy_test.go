package servertest_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// fieldOwner is the field manager of the test's server-side applies.
const fieldOwner = "scaffold-servertest"

// manifests are the objects a kustomization builds to, in the order
// kubectl apply -k sends them.
type manifests []*unstructured.Unstructured

// build builds the kustomization in dir as kubectl kustomize does, in
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

// one decodes the only object of kind into into, failing the test when
// there is not exactly one.
func (m manifests) one(t *testing.T, kind string, into any) {
	t.Helper()
	objs := m.ofKind(kind)
	if len(objs) != 1 {
		t.Fatalf("%d objects of kind %s, want 1", len(objs), kind)
	}
	decode(t, objs[0], into)
}

func decode(t *testing.T, u *unstructured.Unstructured, into any) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, into, true); err != nil {
		t.Fatalf("decoding %s %s: %v", u.GetKind(), u.GetName(), err)
	}
}

// deploy applies the project's config/default as kubectl apply
// --server-side -k does, in kustomize's order, and waits for its CRDs to
// be established and its Deployment to be Available: both replicas
// Running and Ready on kwok nodes, which run no container, so the image
// is never pulled. The cluster-scoped objects are deleted at the end of
// the test.
func deploy(t *testing.T, cp *controlplane.ControlPlane, dir string) manifests {
	t.Helper()
	objs := build(t, dir+"/config/default")
	for _, u := range objs {
		if err := cp.Client.Apply(t.Context(), client.ApplyConfigurationFromUnstructured(u.DeepCopy()), client.FieldOwner(fieldOwner), client.ForceOwnership); err != nil {
			t.Fatalf("applying %s %s: %v", u.GetKind(), u.GetName(), err)
		}
		if u.GetNamespace() == "" {
			t.Cleanup(func() { _ = cp.Client.Delete(context.Background(), u.DeepCopy()) })
		}
	}
	for _, u := range objs.ofKind("CustomResourceDefinition") {
		waitEstablished(t, cp.Client, u.GetName())
	}
	d := &appsv1.Deployment{}
	objs.one(t, "Deployment", d)
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (appsv1.DeploymentStatus, bool, error) {
		got := &appsv1.Deployment{}
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(d), got); err != nil {
			return appsv1.DeploymentStatus{}, false, err
		}
		s := got.Status
		return s, s.ObservedGeneration == got.Generation && s.AvailableReplicas == 2 && available(s.Conditions), nil
	}, 2*time.Minute); err != nil {
		t.Fatalf("the Deployment %s/%s did not become Available: %v", d.Namespace, d.Name, err)
	}
	return objs
}

// waitEstablished waits until the CRD name is established.
func waitEstablished(t *testing.T, c client.Reader, name string) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) ([]apiextensionsv1.CustomResourceDefinitionCondition, bool, error) {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := c.Get(ctx, client.ObjectKey{Name: name}, crd); err != nil {
			return nil, false, err
		}
		for _, cond := range crd.Status.Conditions {
			if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
				return crd.Status.Conditions, true, nil
			}
		}
		return crd.Status.Conditions, false, nil
	}, time.Minute); err != nil {
		t.Fatalf("CRD %s is not established: %v", name, err)
	}
}

func available(conds []appsv1.DeploymentCondition) bool {
	for _, c := range conds {
		if c.Type == appsv1.DeploymentAvailable {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// grant is a role bound to the operator's account: its rules, and the
// namespace they hold in ("" for a ClusterRole).
type grant struct {
	kind, name, namespace string
	rules                 []rbacv1.PolicyRule
}

// granted returns the roles config/default binds to sa.
func (m manifests) granted(t *testing.T, sa *corev1.ServiceAccount) []grant {
	t.Helper()
	roles := map[string]grant{}
	for _, kind := range []string{"Role", "ClusterRole"} {
		for _, u := range m.ofKind(kind) {
			r := &rbacv1.Role{}
			decode(t, u, r)
			roles[kind+"/"+u.GetNamespace()+"/"+r.Name] = grant{kind: kind, name: r.Name, namespace: u.GetNamespace(), rules: r.Rules}
		}
	}
	var out []grant
	for _, kind := range []string{"RoleBinding", "ClusterRoleBinding"} {
		for _, u := range m.ofKind(kind) {
			b := &rbacv1.RoleBinding{}
			decode(t, u, b)
			if !bindsTo(b.Subjects, sa) {
				continue
			}
			ns := ""
			if b.RoleRef.Kind == "Role" {
				ns = b.Namespace
			}
			g, ok := roles[b.RoleRef.Kind+"/"+ns+"/"+b.RoleRef.Name]
			if !ok {
				t.Fatalf("%s %s binds %s %s, which config/default does not hold", kind, b.Name, b.RoleRef.Kind, b.RoleRef.Name)
			}
			out = append(out, g)
		}
	}
	return out
}

func bindsTo(subjects []rbacv1.Subject, sa *corev1.ServiceAccount) bool {
	for _, s := range subjects {
		if s.Kind == rbacv1.ServiceAccountKind && s.Name == sa.Name && s.Namespace == sa.Namespace {
			return true
		}
	}
	return false
}
