package servertest_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
)

// An unchanged claim template is never reported as ignored, however often
// the StatefulSet is looked at while it is not ready (its pods wait for a
// volume here, so every pass reads it).
func TestUnchangedClaimTemplateIsNotReported(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cat := catalog()
	server := cat["server"]
	server.DataVolume = &builders.DataVolume{MountPath: "/data"}
	server.ConfigDefaults = &commonsv1alpha1.RoleGroupConfigSpec{Resources: &commonsv1alpha1.ResourcesSpec{
		Storage: &commonsv1alpha1.StorageResource{Capacity: ptrTo(resource.MustParse("1Gi"))}}}
	cat["server"] = server
	cfg.Roles = reconciler.StaticRoles[*sampleCluster](cat)
	cfg.HealthCheckInterval = -1
	cfg.ProgressInterval = time.Hour
	op := startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "claims", map[string]map[string]int32{"server": {"default": 2}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	name := builders.RoleGroupResourceName("claims", "server", "default")
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &appsv1.StatefulSet{})
		return err == nil, err == nil, client.IgnoreNotFound(err)
	}, time.Minute); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := op.r.Reconcile(ctx(t), ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatal(err)
		}
	}
	list := &eventsv1.EventList{}
	if err := cp.Client.List(t.Context(), list, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	for _, e := range list.Items {
		if e.Reason == reconciler.ReasonImmutableFieldIgnored {
			t.Errorf("an unchanged StatefulSet was reported: %s", e.Note)
		}
	}
}
