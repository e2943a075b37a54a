package servertest_test

import (
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

// An operator restricted to one namespace through Config.Namespaces needs
// rights in that namespace only: its manager's cache and its own watch of
// ConfigMaps and Secrets both stay inside it. The operator runs as a user
// bound to a Role in the namespace and nothing else, and converges.
func TestNamespacedOperatorNeedsNoClusterRights(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	const user = "namespaced-operator"
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
		if err := cp.Client.Create(t.Context(), o); err != nil {
			t.Fatal(err)
		}
	}
	rc := cp.RESTConfig()
	rc.Impersonate.UserName = user
	cfg := baseConfig()
	cfg.Namespaces = []string{ns}
	startOperatorWith(t, rc, ns, cfg)

	cr := newCluster(ns, "local", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, client.ObjectKeyFromObject(cr), commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
}
