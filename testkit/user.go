package testkit

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NamespaceUser binds user to a Role granting every verb on every resource
// of namespace ns, and nothing else, and returns a copy of cfg that acts as
// user: an operator run with it has the rights of one deployed with a Role
// in its namespace only. c creates the Role and RoleBinding (they go with
// the namespace). It returns once the binding is in force: user lists
// ConfigMaps in ns, and is refused them cluster-wide.
func NamespaceUser(t testing.TB, c client.Client, cfg *rest.Config, ns, user string) *rest.Config {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, o := range []client.Object{
		&rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: user},
			Rules:      []rbacv1.PolicyRule{{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}}},
		},
		&rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: user},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: user},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}},
		},
	} {
		if err := c.Create(ctx, o); err != nil {
			t.Fatalf("binding user %s to namespace %s: %v", user, ns, err)
		}
	}
	as := rest.CopyConfig(cfg)
	as.Impersonate = rest.ImpersonationConfig{UserName: user}
	uc, err := client.New(as, client.Options{Scheme: c.Scheme(), Mapper: c.RESTMapper()})
	if err != nil {
		t.Fatalf("a client for user %s: %v", user, err)
	}
	if _, err := WaitFor(ctx, func(ctx context.Context) (error, bool, error) {
		err := uc.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
		return err, err == nil, nil
	}, 30*time.Second); err != nil {
		t.Fatalf("user %s cannot list ConfigMaps in %s: %v", user, ns, err)
	}
	if err := uc.List(ctx, &corev1.ConfigMapList{}); !apierrors.IsForbidden(err) {
		t.Fatalf("user %s lists ConfigMaps cluster-wide (%v): the binding grants more than the namespace", user, err)
	}
	return as
}
