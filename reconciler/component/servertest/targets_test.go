package servertest_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

// noteGenerator renders one ConfigMap holding the shop's message: objects
// that are ready as soon as they exist, in a cluster without controllers.
var noteGenerator = generators.GeneratorFunc(func(_ context.Context, namespace, name string, params map[string]any) ([]client.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetNamespace(namespace)
	u.SetName(name + "-note")
	msg, _ := params["message"].(string)
	if err := unstructured.SetNestedStringMap(u.Object, map[string]string{"message": msg}, "data"); err != nil {
		return nil, err
	}
	return []client.Object{u}, nil
})

// A shop whose spec names a kubeconfig Secret is applied to that cluster:
// its objects (and the events about them) land there, its own status and
// events stay in its cluster, and deleting it deletes the remote objects.
func TestRemoteTarget(t *testing.T) {
	cp := env.Require(t)
	rcp := remote.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	kubeconfig, err := os.ReadFile(rcp.KubeconfigPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := cp.Client.Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "remote"},
		Data: map[string][]byte{"value": kubeconfig}}); err != nil {
		t.Fatal(err)
	}
	// The operator records Normal events on objects, so that the one on
	// the remote ConfigMap shows where they go.
	startOperator(t, cp, ns, setup{generator: noteGenerator, opts: component.Options{ObjectEvents: true}})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "far away",
		ClientSpec: componentv1alpha1.ClientSpec{KubeConfig: &componentv1alpha1.KubeConfigSpec{
			SecretRef: componentv1alpha1.SecretKeyReference{Name: "remote", Key: "value"}}}})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)

	note := &corev1.ConfigMap{}
	if !get(t, rcp.Client, ns, "front-note", note) || note.Data["message"] != "far away" {
		t.Fatalf("the remote cluster lacks the shop's ConfigMap: %+v", note.Data)
	}
	if get(t, cp.Client, ns, "front-note", &corev1.ConfigMap{}) {
		t.Errorf("the shop's ConfigMap was applied to its own cluster too")
	}
	waitEvent(t, rcp.Client, ns, "front-note", "Created")
	waitEvent(t, cp.Client, ns, "front", componentv1alpha1.ReasonReady)

	if err := cp.Client.Delete(t.Context(), &shop.Shop{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "front"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (bool, bool, error) {
		gone := !get(t, cp.Client, ns, "front", &shop.Shop{}) && !get(t, rcp.Client, ns, "front-note", &corev1.ConfigMap{})
		return gone, gone, nil
	}, time.Minute); err != nil {
		t.Fatalf("shop or remote ConfigMap not deleted: %v", err)
	}
}

// A shop naming a service account is applied with that account's
// permissions, and no more.
func TestImpersonatedServiceAccount(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{generator: noteGenerator})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "restricted",
		ImpersonationSpec: componentv1alpha1.ImpersonationSpec{ServiceAccountName: "deployer"}})
	key := client.ObjectKey{Namespace: ns, Name: "front"}

	s := waitState(t, cp.Client, key, componentv1alpha1.StateError, componentv1alpha1.ReasonError, time.Minute)
	if msg := s.Status.ReadyCondition().Message; !strings.Contains(msg, "system:serviceaccount:"+ns+":deployer") {
		t.Fatalf("message %q does not show the impersonated account being refused", msg)
	}
	if get(t, cp.Client, ns, "front-note", &corev1.ConfigMap{}) {
		t.Fatalf("the ConfigMap was created beyond the account's permissions")
	}

	grant(t, cp.Client, ns, "deployer")
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)
	if !get(t, cp.Client, ns, "front-note", &corev1.ConfigMap{}) {
		t.Errorf("ConfigMap missing once the account may write it")
	}
}

// grant lets the service account read its namespace and manage ConfigMaps
// in it.
func grant(t *testing.T, c client.Client, ns, sa string) {
	t.Helper()
	subject := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: ns}}
	objs := []client.Object{
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: sa}, Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"}},
		}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: sa}, Subjects: subject,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: sa}},
		&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: ns + "-" + sa}, Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"namespaces"}, ResourceNames: []string{ns}, Verbs: []string{"get"}},
		}},
		&rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: ns + "-" + sa}, Subjects: subject,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: ns + "-" + sa}},
	}
	for _, o := range objs {
		if err := c.Create(t.Context(), o); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Delete(context.Background(), o) })
	}
}

// An operator whose own configuration impersonates cannot impersonate on a
// component's behalf: impersonation does not nest, and the shop says so.
func TestDoubleImpersonationIsRefused(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{generator: noteGenerator, config: func(cfg *rest.Config) {
		cfg.Impersonate = rest.ImpersonationConfig{UserName: "shop-operator", Groups: []string{"system:masters"}}
	}, opts: component.Options{DefaultServiceAccount: "deployer"}})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "nested"})

	s := waitState(t, cp.Client, client.ObjectKey{Namespace: ns, Name: "front"}, componentv1alpha1.StateError, componentv1alpha1.ReasonError, time.Minute)
	if msg := s.Status.ReadyCondition().Message; !strings.Contains(msg, "impersonation does not nest") {
		t.Errorf("message %q does not refuse the nested impersonation", msg)
	}
	waitEvent(t, cp.Client, ns, "front", componentv1alpha1.ReasonError, "impersonation does not nest")
}

// A placement puts the objects into another namespace (created if
// missing) under another name.
func TestPlacement(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	target := ns + "-placed"
	t.Cleanup(func() {
		_ = cp.Client.Delete(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: target}})
	})
	startOperator(t, cp, ns, setup{generator: noteGenerator, namespaces: []string{target}})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "elsewhere",
		PlacementSpec: componentv1alpha1.PlacementSpec{Namespace: target, Name: "outlet"}})
	waitState(t, cp.Client, client.ObjectKey{Namespace: ns, Name: "front"}, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)
	note := &corev1.ConfigMap{}
	if !get(t, cp.Client, target, "outlet-note", note) || note.Data["message"] != "elsewhere" {
		t.Errorf("ConfigMap outlet-note missing in %s: %+v", target, note.Data)
	}
}
