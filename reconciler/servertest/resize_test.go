package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
)

// A resized claim template cannot be applied, so the cluster is not
// complete: ReconcileComplete says False, naming the field, the live and
// the asked size and what to do. Reverting the size makes it complete
// again; so does recreating the StatefulSet, which then takes the new
// template, even when the StatefulSet controller writes the deleted
// StatefulSet's observed generation onto the new one (a status write that
// met a conflict is retried on the object then holding the name).
func TestResizedClaimTemplateKeepsReconcileIncomplete(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, dataVolumeConfig())
	logWorkloadsOnFailure(t, cp.Client, ns)

	// The pod's claim binds to a volume made for it, so the pod runs and
	// the cluster can be complete.
	boundVolume(t, cp.Client, ns, "data-disk-server-default-0", "1Gi")
	cr := newCluster(ns, "disk", map[string]map[string]int32{"server": {"default": 1}})
	setStorage(cr, "1Gi")
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	name := builders.RoleGroupResourceName("disk", "server", "default")
	complete := func() {
		t.Helper()
		waitCurrentCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "True", reconciler.ReasonComplete, 2*time.Minute)
	}
	complete()

	resize := func(size string) {
		t.Helper()
		if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) { setStorage(c, size) }); err != nil {
			t.Fatal(err)
		}
	}
	resize("5Gi")
	got := waitCurrentCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "False", reconciler.ReasonImmutableFieldIgnored, time.Minute)
	msg := conditionMessage(got, commonsv1alpha1.ConditionReconcileComplete)
	for _, want := range []string{name, "spec.volumeClaimTemplates[name=data].spec.resources.requests.storage", "1Gi", "5Gi", "revert", "--cascade=orphan"} {
		if !strings.Contains(msg, want) {
			t.Errorf("ReconcileComplete message %q does not contain %q", msg, want)
		}
	}
	if c := findCondition(got, commonsv1alpha1.ConditionDegraded); c == nil || c.Status != metav1.ConditionFalse {
		t.Errorf("Degraded = %+v; the cluster runs as before, it is not degraded", c)
	}

	resize("1Gi")
	complete()

	// Recreated (its pods and claims kept), the StatefulSet takes the size.
	resize("5Gi")
	waitCurrentCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "False", reconciler.ReasonImmutableFieldIgnored, time.Minute)
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if err := cp.Client.Delete(t.Context(), sts, client.PropagationPolicy(metav1.DeletePropagationOrphan)); err != nil {
		t.Fatal(err)
	}
	complete()
	if err := cp.Client.Get(t.Context(), client.ObjectKeyFromObject(sts), sts); err != nil {
		t.Fatal(err)
	}
	if got := sts.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests.Storage().String(); got != "5Gi" {
		t.Errorf("the recreated StatefulSet's claim template asks %s, want 5Gi", got)
	}
}

// dataVolumeConfig is baseConfig with a data volume for the server role.
func dataVolumeConfig() reconciler.Config[*sampleCluster] {
	cfg := baseConfig()
	cat := catalog()
	server := cat["server"]
	server.DataVolume = &builders.DataVolume{MountPath: "/data"}
	cat["server"] = server
	cfg.Roles = reconciler.StaticRoles[*sampleCluster](cat)
	return cfg
}

// setStorage sets the server role's storage capacity.
func setStorage(c *sampleCluster, size string) {
	rs := c.Spec.Roles["server"]
	rs.Config = &commonsv1alpha1.RoleGroupConfigSpec{Resources: &commonsv1alpha1.ResourcesSpec{
		Storage: &commonsv1alpha1.StorageResource{Capacity: ptrTo(resource.MustParse(size))}}}
	c.Spec.Roles["server"] = rs
}

// boundVolume creates a PersistentVolume of size reserved for the claim
// ns/claim, and deletes it when the test ends.
func boundVolume(t *testing.T, c client.Client, ns, claim, size string) {
	t.Helper()
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: ns + "-" + claim},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:               corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)},
			AccessModes:            []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/tmp/" + ns + "-" + claim}},
			ClaimRef:               &corev1.ObjectReference{Namespace: ns, Name: claim},
		},
	}
	if err := c.Create(t.Context(), pv); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := c.Delete(ctx, pv); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting PersistentVolume %s: %v", pv.Name, err)
		}
	})
}
