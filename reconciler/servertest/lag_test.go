package servertest_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// A pass never writes on the strength of a cache that has not seen the
// operator's own last write: an edit of a managed ConfigMap's label,
// reverted while the operator's cache keeps showing the edited version
// (as a busy informer does), is one write, however many passes run before
// the cache catches up; and no status write.
func TestRevertOnALaggingCacheIsOneWrite(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.HealthCheckInterval = -1
	cfg.ProgressInterval = time.Hour
	lag := faults.NewLag(schema.GroupKind{Kind: "ConfigMap"})
	op := startOperatorClient(t, cp.RESTConfig(), ns, cfg, testkit.Logger(t), lag.NewClient)

	cr := newCluster(ns, "lag", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "True", "", 2*time.Minute)
	settle(t, op, key)

	name := builders.RoleGroupResourceName("lag", "server", "default")
	cm := &corev1.ConfigMap{}
	cm.Namespace, cm.Name = ns, name
	lag.Hold()
	before := op.count.Snapshot()
	if err := cp.Client.Patch(t.Context(), cm, client.RawPatch(types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"`+commonsv1alpha1.LabelVersion+`":"tampered"}}}`))); err != nil {
		t.Fatal(err)
	}
	waitLabel(t, cp.Client, client.ObjectKeyFromObject(cm), commonsv1alpha1.LabelVersion, "1.0.0")
	for range 3 {
		if _, err := op.r.Reconcile(ctx(t), ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatal(err)
		}
	}
	if lag.Served() == 0 {
		t.Fatal("no pass read the ConfigMap while the cache lagged")
	}
	lag.Release()
	settle(t, op, key)
	d := op.count.Snapshot().Sub(before)
	writes := d.Writes() - d[apicount.Key{Verb: "create", Resource: "events.events.k8s.io"}] - d[apicount.Key{Verb: "patch", Resource: "events.events.k8s.io"}]
	if writes != 1 || d[apicount.Key{Verb: "update", Resource: "configmaps"}] != 1 {
		t.Errorf("reverting one edit on a lagging cache took %d writes (want one ConfigMap update, no status write):\n%s", writes, d)
	}
}

// waitLabel waits until the ConfigMap key carries label with value.
func waitLabel(t *testing.T, c client.Client, key client.ObjectKey, label, value string) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		got := &corev1.ConfigMap{}
		err := c.Get(ctx, key, got)
		return got.Labels[label], err == nil && got.Labels[label] == value, err
	}, 30*time.Second); err != nil {
		t.Fatalf("%s=%s never came back: %v", label, value, err)
	}
}
