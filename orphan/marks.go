package orphan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// progressMarks are the annotations the teardown writes on the objects it
// retires.
var progressMarks = []string{v1alpha1.AnnotationPendingDeletion, v1alpha1.AnnotationDrainStarted}

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

// setMarks patches annotations on obj: a value sets, nil removes. The
// patch is a JSON merge patch of the annotations alone, so it never
// conflicts with other writers.
func (c *Cleaner) setMarks(ctx context.Context, obj client.Object, marks map[string]*string) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": marks}})
	if err != nil {
		return fmt.Errorf("encoding progress marks: %w", err)
	}
	if err := c.client.Patch(ctx, obj, client.RawPatch(types.MergePatchType, patch)); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("marking %T %s: %w", obj, obj.GetName(), err)
	}
	return nil
}

func (c *Cleaner) stamp(ctx context.Context, obj client.Object, key string) error {
	now := c.opts.Clock.Now().UTC().Format(time.RFC3339)
	return c.setMarks(ctx, obj, map[string]*string{key: &now})
}

// resetMarks removes progress marks from the objects of every declared
// group, so a group re-added mid-teardown starts any later teardown afresh.
func (c *Cleaner) resetMarks(ctx context.Context, live map[v1alpha1.RoleGroupRef]liveGroup, declared map[v1alpha1.RoleGroupRef]bool) error {
	var errs []error
	for _, ref := range sortedRefs(live) {
		if !declared[ref] {
			continue
		}
		for _, obj := range live[ref].objects() {
			if err := c.clearMarks(ctx, obj); err != nil {
				errs = append(errs, classify(fmt.Errorf("role group %s/%s: %w", ref.Role, ref.Group, err)))
			}
		}
	}
	for _, err := range errs {
		if IsRateLimitError(err) {
			return err
		}
	}
	return errors.Join(errs...)
}

func (c *Cleaner) clearMarks(ctx context.Context, obj client.Object) error {
	remove := map[string]*string{}
	for _, key := range progressMarks {
		if _, ok := obj.GetAnnotations()[key]; ok {
			remove[key] = nil
		}
	}
	if len(remove) == 0 {
		return nil
	}
	return c.setMarks(ctx, obj, remove)
}

func sortedRefs(live map[v1alpha1.RoleGroupRef]liveGroup) []v1alpha1.RoleGroupRef {
	out := make([]v1alpha1.RoleGroupRef, 0, len(live))
	for ref := range live {
		out = append(out, ref)
	}
	slices.SortFunc(out, compareRefs)
	return out
}
