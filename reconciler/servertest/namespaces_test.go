package servertest_test

import (
	"testing"
	"time"

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
	rc := testkit.NamespaceUser(t, cp.Client, cp.RESTConfig(), ns, "namespaced-operator")
	cfg := baseConfig()
	cfg.Namespaces = []string{ns}
	startOperatorWith(t, rc, ns, cfg, testkit.Logger(t))

	cr := newCluster(ns, "local", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, client.ObjectKeyFromObject(cr), commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
}
