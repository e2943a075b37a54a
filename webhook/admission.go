package webhook

import (
	"context"
	"slices"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// ValidateCreate refuses cr when Check finds the user's mistakes, with an
// Invalid error listing each field; warnings are returned either way.
func (w *Webhook[CR]) ValidateCreate(ctx context.Context, cr CR) (admission.Warnings, error) {
	res := w.Check(ctx, cr)
	return res.Warnings, w.refusal(cr, res.Errors)
}

// ValidateUpdate refuses the new state for the user's mistakes it
// introduces. A mistake the old state already had, unchanged, is a warning
// instead: an update that does not touch it (a label, another role) is not
// blocked by a value admitted before these checks existed. A resource
// being deleted is admitted unchecked, so its finalizers can be removed.
func (w *Webhook[CR]) ValidateUpdate(ctx context.Context, old, cr CR) (admission.Warnings, error) {
	if cr.GetDeletionTimestamp() != nil {
		return nil, nil
	}
	res := w.Check(ctx, cr)
	if len(res.Errors) == 0 {
		return res.Warnings, nil
	}
	before := w.Check(ctx, old).Errors
	warnings := slices.Clone(res.Warnings)
	var introduced field.ErrorList
	for _, e := range res.Errors {
		if slices.ContainsFunc(before, func(b *field.Error) bool { return b.Field == e.Field && b.Detail == e.Detail }) {
			warnings = append(warnings, "unchanged and still invalid: "+e.Error())
			continue
		}
		introduced = append(introduced, e)
	}
	return warnings, w.refusal(cr, introduced)
}

// ValidateDelete admits every deletion.
func (w *Webhook[CR]) ValidateDelete(context.Context, CR) (admission.Warnings, error) {
	return nil, nil
}

// Default runs the product's Default, then undoes any change it made to
// the embedded common spec: those values are recomputed by the reconciler
// every pass (the image from the operator's defaults, the config from the
// role declaration), and one stored at admission would freeze them. The
// undoing is logged as an error: it is the operator's bug.
func (w *Webhook[CR]) Default(ctx context.Context, cr CR) error {
	if w.opts.Default == nil {
		return nil
	}
	before := cr.GetClusterSpec().DeepCopy()
	if err := w.opts.Default(ctx, cr); err != nil {
		return err
	}
	after := cr.GetClusterSpec()
	if changed := changedFields(before, after); len(changed) > 0 {
		logr.FromContextOrDiscard(ctx).Error(nil, "the product's defaulting changed fields the reconciler derives every pass; the change is undone",
			"fields", changed, "resource", cr.GetNamespace()+"/"+cr.GetName())
		*after = *before
	}
	return nil
}

// refusal returns nil for no errors, else an Invalid error for cr.
func (w *Webhook[CR]) refusal(cr CR, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	gvk := cr.GetObjectKind().GroupVersionKind()
	gk := schema.GroupKind{Group: gvk.Group, Kind: kindOf(cr)}
	return apierrors.NewInvalid(gk, cr.GetName(), errs)
}

// changedFields returns the top-level fields of the common spec that
// differ, as "spec.<field>" (per role for spec.roles), sorted.
func changedFields(before, after *commonsv1alpha1.ClusterSpec) []string {
	var out []string
	if !equality.Semantic.DeepEqual(before.Image, after.Image) {
		out = append(out, "spec.image")
	}
	if !equality.Semantic.DeepEqual(before.ClusterOperation, after.ClusterOperation) {
		out = append(out, "spec.clusterOperation")
	}
	if before.VectorAggregatorConfigMapName != after.VectorAggregatorConfigMapName {
		out = append(out, "spec.vectorAggregatorConfigMapName")
	}
	roles := map[string]bool{}
	for r := range before.Roles {
		roles[r] = true
	}
	for r := range after.Roles {
		roles[r] = true
	}
	for r := range roles {
		b, inBefore := before.Roles[r]
		a, inAfter := after.Roles[r]
		if inBefore != inAfter || !equality.Semantic.DeepEqual(b, a) {
			out = append(out, "spec.roles."+r)
		}
	}
	slices.Sort(out)
	return out
}
