package servertest_test

import (
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

// An operator restricted to one namespace through Options.Namespaces
// needs rights in that namespace only: its manager's cache and the
// reconciler's own watch of ConfigMaps and Secrets both stay inside it.
// The operator runs as a user bound to a Role in the namespace and nothing
// else, and the shop, chart and kustomization, reaches Ready.
func TestNamespacedOperatorNeedsNoClusterRights(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	as := testkit.NamespaceUser(t, cp.Client, cp.RESTConfig(), ns, "namespaced-component-operator")
	startOperator(t, cp, ns, setup{
		config: func(c *rest.Config) { c.Impersonate = as.Impersonate },
		opts:   component.Options{Namespaces: []string{ns}},
	})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	waitState(t, cp.Client, client.ObjectKey{Namespace: ns, Name: "front"}, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
}
