package orphan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/builders"
)

// progressMarks returns the annotations the teardown writes on the objects
// it retires.
func progressMarks() []string {
	return []string{v1alpha1.AnnotationPendingDeletion, v1alpha1.AnnotationDrainStarted}
}

// markTime reads a progress mark. A missing or unreadable mark reports
// false; the caller stamps a new one.
func markTime(obj client.Object, key string) (time.Time, bool) {
	v, ok := obj.GetAnnotations()[key]
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, v)
	return t, err == nil
}

// stampTime is now as a mark records it: UTC, whole seconds.
func stampTime(now time.Time) time.Time { return now.UTC().Truncate(time.Second) }

// stamp writes the mark key with t (see stampTime) on obj.
func (c *Cleaner) stamp(ctx context.Context, obj client.Object, key string, t time.Time) error {
	v := t.Format(time.RFC3339)
	return c.setMarks(ctx, obj, map[string]*string{key: &v})
}

// setMarks patches annotations on obj: a value sets, nil removes. The
// patch is a JSON merge patch of the annotations alone, so it never
// conflicts with other writers.
func (c *Cleaner) setMarks(ctx context.Context, obj client.Object, marks map[string]*string) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": marks}})
	if err != nil {
		return fmt.Errorf("encoding progress marks: %w", err)
	}
	if err := c.client.Patch(ctx, obj, client.RawPatch(types.MergePatchType, patch)); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("marking %s %s: %w", c.kind(obj), obj.GetName(), apierr.Classify(err))
	}
	return nil
}

// resetMarks removes the progress marks from the objects of every declared
// group, so a group declared again in the middle of its teardown starts
// any later teardown afresh. Groups found live use what discovery listed;
// groups known only from the ledger (no owner UID, or objects discovery
// does not claim) are read by their derived names. A rate limit stops it
// at once.
func (c *Cleaner) resetMarks(ctx context.Context, sc scope, declared []v1alpha1.RoleGroupRef, live map[v1alpha1.RoleGroupRef]liveGroup, inLedger map[v1alpha1.RoleGroupRef]bool) ([]Action, error) {
	var (
		actions []Action
		errs    []error
	)
	for _, ref := range declared {
		done, err := c.unmark(ctx, sc, ref, live, inLedger)
		actions = append(actions, done...)
		if err != nil {
			errs = append(errs, fmt.Errorf("role group %s/%s: %w", ref.Role, ref.Group, err))
			if errors.Is(err, failure.ErrRateLimited) {
				break
			}
		}
	}
	return actions, errors.Join(errs...)
}

// unmark removes the progress marks of one declared group.
func (c *Cleaner) unmark(ctx context.Context, sc scope, ref v1alpha1.RoleGroupRef, live map[v1alpha1.RoleGroupRef]liveGroup, inLedger map[v1alpha1.RoleGroupRef]bool) ([]Action, error) {
	objs, err := c.declaredObjects(ctx, sc, ref, live, inLedger)
	if err != nil {
		return nil, err
	}
	ctx = logr.NewContext(ctx, logr.FromContextOrDiscard(ctx).WithValues("role", ref.Role, "group", ref.Group))
	var out []Action
	for _, obj := range objs {
		cleared, err := c.clearMarks(ctx, obj)
		if err != nil {
			return out, err
		}
		if cleared {
			a := Action{Type: ActionUnmarked, RoleGroup: ref, Object: c.reference(obj)}
			out = append(out, a)
			logAction(ctx, a)
		}
	}
	return out, nil
}

// declaredObjects returns the StatefulSet and ConfigMap of a declared
// group that may carry marks.
func (c *Cleaner) declaredObjects(ctx context.Context, sc scope, ref v1alpha1.RoleGroupRef, live map[v1alpha1.RoleGroupRef]liveGroup, inLedger map[v1alpha1.RoleGroupRef]bool) ([]client.Object, error) {
	if g, ok := live[ref]; ok {
		return g.objects(), nil
	}
	if !inLedger[ref] {
		return nil, nil
	}
	name := builders.RoleGroupResourceName(sc.cluster, ref.Role, ref.Group)
	var out []client.Object
	for _, obj := range []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}} {
		err := c.client.Get(ctx, client.ObjectKey{Namespace: sc.namespace, Name: name}, obj)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return out, fmt.Errorf("reading %s %s: %w", c.kind(obj), name, apierr.Classify(err))
		}
		if sc.ours(obj, ref) {
			out = append(out, obj)
		}
	}
	return out, nil
}

// clearMarks removes obj's progress marks and reports whether it had any.
func (c *Cleaner) clearMarks(ctx context.Context, obj client.Object) (bool, error) {
	remove := map[string]*string{}
	for _, key := range progressMarks() {
		if _, ok := obj.GetAnnotations()[key]; ok {
			remove[key] = nil
		}
	}
	if len(remove) == 0 {
		return false, nil
	}
	if err := c.setMarks(ctx, obj, remove); err != nil {
		return false, err
	}
	return true, nil
}
