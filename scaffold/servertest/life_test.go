package servertest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// The generated product has one role; its sample one role group.
const (
	roleServer   = "server"
	defaultGroup = "default"
)

// productLife takes the product's sample through its life: created,
// scaled, reconfigured, edited by hand, its disruption budget turned off,
// a role group added and retired with its claims, deleted; each step
// waits for the operator to converge.
func productLife(t *testing.T, c client.Client, cr *unstructured.Unstructured, log *apicount.Log) {
	t.Helper()
	waitCondition(t, c, cr, commonsv1alpha1.ConditionAvailable, "True")
	change(t, c, cr, "scale", func(u *unstructured.Unstructured) error {
		return unstructured.SetNestedField(u.Object, int64(2), append(roleGroup(defaultGroup), "replicas")...)
	})
	waitCondition(t, c, cr, commonsv1alpha1.ConditionAvailable, "True")
	reconfigure(t, c, cr)
	editByHand(t, c, cr)
	annotateServiceAccount(t, c, cr, log)
	change(t, c, cr, "turn the role's disruption budget off", func(u *unstructured.Unstructured) error {
		return unstructured.SetNestedField(u.Object, false, "spec", "roles", roleServer, "roleConfig", "podDisruptionBudget", "enabled")
	})
	waitGone(t, c, &policyv1.PodDisruptionBudget{}, client.ObjectKey{Namespace: cr.GetNamespace(), Name: builders.RoleResourceName(cr.GetName(), roleServer)})
	addAndRetire(t, c, cr)
	deleteAndWait(t, c, cr)
}

// roleGroup is the path of a role group of the server role in the spec.
func roleGroup(group string) []string {
	return []string{"spec", "roles", roleServer, "roleGroups", group}
}

// reconfigure overrides a property of the server's config file and waits
// for the role group's ConfigMap to hold it.
func reconfigure(t *testing.T, c client.Client, cr *unstructured.Unstructured) {
	t.Helper()
	change(t, c, cr, "reconfigure", func(u *unstructured.Unstructured) error {
		return unstructured.SetNestedStringMap(u.Object, map[string]string{"log.level": "debug"}, "spec", "roles", roleServer, "configOverrides", "server.properties")
	})
	configMap := client.ObjectKey{Namespace: cr.GetNamespace(), Name: builders.RoleGroupResourceName(cr.GetName(), roleServer, defaultGroup)}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		cm := &corev1.ConfigMap{}
		err := c.Get(ctx, configMap, cm)
		file := cm.Data["server.properties"]
		return file, err == nil && strings.Contains(file, "log.level=debug"), err
	}, time.Minute); err != nil {
		t.Fatalf("the override did not reach ConfigMap %s: %v", configMap.Name, err)
	}
}

// editByHand changes, as kubectl edit would, a label the operator states
// on one object of each kind it applies, and waits for the operator to
// write it back.
func editByHand(t *testing.T, c client.Client, cr *unstructured.Unstructured) {
	t.Helper()
	group := builders.RoleGroupResourceName(cr.GetName(), roleServer, defaultGroup)
	edits := []struct {
		obj  client.Object
		name string
	}{
		{&corev1.Service{}, group},
		{&corev1.ConfigMap{}, group},
		{&appsv1.StatefulSet{}, group},
		{&policyv1.PodDisruptionBudget{}, builders.RoleResourceName(cr.GetName(), roleServer)},
		{&corev1.ServiceAccount{}, builders.ServiceAccountName(cr.GetKind(), cr.GetName())},
	}
	const label = "app.kubernetes.io/managed-by"
	for _, e := range edits {
		key := client.ObjectKey{Namespace: cr.GetNamespace(), Name: e.name}
		var want string
		// A controller may write the object's status meanwhile: again on
		// a conflict.
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
			if err := c.Get(ctx, key, e.obj); err != nil {
				return "", false, err
			}
			labels := e.obj.GetLabels()
			want = labels[label]
			labels[label] = "someone"
			e.obj.SetLabels(labels)
			err := c.Update(ctx, e.obj)
			if apierrors.IsConflict(err) {
				return err.Error(), false, nil
			}
			return "", err == nil, err
		}, time.Minute); err != nil {
			t.Fatalf("editing %T %s: %v", e.obj, e.name, err)
		}
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
			err := c.Get(ctx, key, e.obj)
			return e.obj.GetLabels()[label], err == nil && e.obj.GetLabels()[label] == want, err
		}, time.Minute); err != nil {
			t.Fatalf("the edit of %T %s was not reverted: %v", e.obj, e.name, err)
		}
	}
}

// annotateServiceAccount adds an annotation the operator does not state to
// the ServiceAccount it applies, and waits until the operator has read the
// ServiceAccount afresh: it has no generation, so the operator confirms
// such a change through an uncached read (which leaves the annotation),
// which only log shows.
func annotateServiceAccount(t *testing.T, c client.Client, cr *unstructured.Unstructured, log *apicount.Log) {
	t.Helper()
	key := client.ObjectKey{Namespace: cr.GetNamespace(), Name: builders.ServiceAccountName(cr.GetKind(), cr.GetName())}
	sa := &corev1.ServiceAccount{}
	if err := c.Get(t.Context(), key, sa); err != nil {
		t.Fatal(err)
	}
	if sa.Annotations == nil {
		sa.Annotations = map[string]string{}
	}
	sa.Annotations["example.com/note"] = "edited"
	if err := c.Update(t.Context(), sa); err != nil {
		t.Fatalf("annotating ServiceAccount %s: %v", key.Name, err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
		n := 0
		for _, r := range log.Requests() {
			if r.Verb == "get" && r.Resource == "serviceaccounts" && r.Namespace == key.Namespace && r.Name == key.Name {
				n++
			}
		}
		return n, n > 0, nil
	}, time.Minute); err != nil {
		t.Fatalf("the operator did not read the annotated ServiceAccount afresh: %v", err)
	}
}

// addAndRetire adds a role group, waits for it to be available, then
// removes it from the spec, its volume claims to be deleted too, and
// waits until the operator has reclaimed it.
func addAndRetire(t *testing.T, c client.Client, cr *unstructured.Unstructured) {
	t.Helper()
	change(t, c, cr, "add a role group", func(u *unstructured.Unstructured) error {
		return unstructured.SetNestedField(u.Object, map[string]any{"replicas": int64(1)}, roleGroup("extra")...)
	})
	waitCondition(t, c, cr, commonsv1alpha1.ConditionAvailable, "True")
	change(t, c, cr, "retire the role group with its claims", func(u *unstructured.Unstructured) error {
		annotations := u.GetAnnotations()
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[commonsv1alpha1.AnnotationDeletePVCs] = "true"
		u.SetAnnotations(annotations)
		unstructured.RemoveNestedField(u.Object, roleGroup("extra")...)
		return nil
	})
	waitCondition(t, c, cr, commonsv1alpha1.ConditionOrphanCleanupPending, "False")
	retired := client.ObjectKey{Namespace: cr.GetNamespace(), Name: builders.RoleGroupResourceName(cr.GetName(), roleServer, "extra")}
	if err := c.Get(t.Context(), retired, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Errorf("the retired role group's ConfigMap %s is still there: %v", retired.Name, err)
	}
}

// waitGone waits until the object key names is gone.
func waitGone(t *testing.T, c client.Client, obj client.Object, key client.ObjectKey) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := c.Get(ctx, key, obj)
		return fmt.Sprint(err), apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	}, time.Minute); err != nil {
		t.Fatalf("%T %s is still there: %v", obj, key.Name, err)
	}
}

// componentLife takes the component's sample through its life: installed
// (revision 1), its ConfigMap edited by hand (written back), upgraded with
// a new message (revision 2), deleted with what it rendered.
func componentLife(t *testing.T, c client.Client, cr *unstructured.Unstructured, _ *apicount.Log) {
	t.Helper()
	waitRevision(t, c, cr, 1)
	rendered := client.ObjectKeyFromObject(cr)
	message, _, _ := unstructured.NestedString(cr.Object, "spec", "message")
	deface(t, c, rendered, message)
	change(t, c, cr, "upgrade", func(u *unstructured.Unstructured) error {
		return unstructured.SetNestedField(u.Object, "changed", "spec", "message")
	})
	waitRevision(t, c, cr, 2)
	cm := &corev1.ConfigMap{}
	if err := c.Get(t.Context(), rendered, cm); err != nil || cm.Data["message"] != "changed" {
		t.Errorf("the rendered ConfigMap holds %q (%v), want the new message", cm.Data["message"], err)
	}
	deleteAndWait(t, c, cr)
	waitGone(t, c, &corev1.ConfigMap{}, rendered)
}

// deface changes the rendered ConfigMap's message by hand, as kubectl edit
// would, and waits for the operator to write message back: the edit moves
// the object's resourceVersion, which the operator confirms through an
// uncached read before it writes.
func deface(t *testing.T, c client.Client, key client.ObjectKey, message string) {
	t.Helper()
	cm := &corev1.ConfigMap{}
	if err := c.Get(t.Context(), key, cm); err != nil {
		t.Fatal(err)
	}
	cm.Data["message"] = "defaced"
	if err := c.Update(t.Context(), cm); err != nil {
		t.Fatalf("editing ConfigMap %s: %v", key.Name, err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := c.Get(ctx, key, cm)
		return cm.Data["message"], err == nil && cm.Data["message"] == message, err
	}, time.Minute); err != nil {
		t.Fatalf("the edit of ConfigMap %s was not reverted: %v", key.Name, err)
	}
}

// createSample creates the project's config/samples/<kind>.yaml in ns.
func createSample(t *testing.T, c client.Client, dir, file, ns string) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "config", "samples", file))
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(b, &u.Object); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	u.SetNamespace(ns)
	if err := c.Create(t.Context(), u); err != nil {
		t.Fatalf("creating the sample: %v", err)
	}
	return u
}

// change applies f to the resource and updates it, again on a conflict.
func change(t *testing.T, c client.Client, cr *unstructured.Unstructured, what string, f func(*unstructured.Unstructured) error) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		u := fresh(cr)
		if err := c.Get(ctx, client.ObjectKeyFromObject(cr), u); err != nil {
			return "", false, err
		}
		if err := f(u); err != nil {
			return "", false, err
		}
		err := c.Update(ctx, u)
		if apierrors.IsConflict(err) {
			return err.Error(), false, nil
		}
		return "", err == nil, err
	}, time.Minute); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitCondition waits until the resource's condition typ has status for
// its generation.
func waitCondition(t *testing.T, c client.Client, cr *unstructured.Unstructured, typ, status string) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (any, bool, error) {
		u := fresh(cr)
		if err := c.Get(ctx, client.ObjectKeyFromObject(cr), u); err != nil {
			return nil, false, err
		}
		conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
		for _, x := range conds {
			cond, _ := x.(map[string]any)
			if cond["type"] == typ {
				return conds, cond["status"] == status && cond["observedGeneration"] == u.GetGeneration(), nil
			}
		}
		return conds, false, nil
	}, 2*time.Minute); err != nil {
		t.Fatalf("waiting for %s=%s: %v", typ, status, err)
	}
}

// waitRevision waits until the component is Ready at revision for its
// generation.
func waitRevision(t *testing.T, c client.Client, cr *unstructured.Unstructured, revision int64) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (any, bool, error) {
		u := fresh(cr)
		if err := c.Get(ctx, client.ObjectKeyFromObject(cr), u); err != nil {
			return nil, false, err
		}
		st, _, _ := unstructured.NestedMap(u.Object, "status")
		return st, st["state"] == string(componentv1alpha1.StateReady) && st["revision"] == revision && st["observedGeneration"] == u.GetGeneration(), nil
	}, 2*time.Minute); err != nil {
		t.Fatalf("waiting for Ready at revision %d: %v", revision, err)
	}
}

// deleteAndWait deletes the resource and waits until it is gone.
func deleteAndWait(t *testing.T, c client.Client, cr *unstructured.Unstructured) {
	t.Helper()
	if err := c.Delete(t.Context(), fresh(cr)); client.IgnoreNotFound(err) != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := c.Get(ctx, client.ObjectKeyFromObject(cr), fresh(cr))
		return fmt.Sprint(err), apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	}, 2*time.Minute); err != nil {
		t.Fatalf("the resource was not deleted: %v", err)
	}
}

// fresh returns an empty object of cr's kind, named as cr.
func fresh(cr *unstructured.Unstructured) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(cr.GroupVersionKind())
	u.SetNamespace(cr.GetNamespace())
	u.SetName(cr.GetName())
	return u
}
