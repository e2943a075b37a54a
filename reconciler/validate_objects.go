package reconciler

import (
	"errors"
	"fmt"
	"strconv"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/builders"
)

const applyOrderSuffix = apply.AnnotationApplyOrder

// Apply waves of a role group: its ConfigMap, Services and extras first
// (what the pods need), then the StatefulSet and the group's budget.
const (
	waveGroupPrerequisites = 0
	waveGroupWorkload      = 1
)

// slot is one fixed object of a role group, with the name it must have.
type slot struct {
	field string
	obj   client.Object
	name  string
	// required slots must be filled.
	required bool
}

// groupObjectList checks a handler's objects before anything of the group
// is applied (so a rejected group leaves nothing half-converged) and
// returns them in one list, each marked with its apply wave. The
// reconciler owns every fixed slot's name, because the orphan cleaner
// finds the slots by those names; extras need a name, the cluster's
// namespace, and must not address an object twice. Every failure is the
// operator's (the handler built it) and names the slot.
func (r *Reconciler[CR]) groupObjectList(cr CR, bc *BuildContext, objs *RoleGroupObjects) ([]client.Object, error) {
	if objs == nil {
		return nil, failure.Invalid(failure.AuthorOperator, "RoleGroupObjects", "the handler returned none")
	}
	rn := bc.ResourceName()
	slots := []slot{
		{"ConfigMap", objs.ConfigMap, rn, true},
		{"HeadlessService", objs.HeadlessService, builders.HeadlessServiceName(rn), true},
		{"Service", objs.Service, rn, false},
		{"MetricsService", objs.MetricsService, builders.MetricsServiceName(rn), false},
		{"StatefulSet", objs.StatefulSet, rn, true},
		{"PodDisruptionBudget", objs.PodDisruptionBudget, rn, false},
	}
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "RoleGroupObjects."+field, format, args...))
	}
	seen := map[string]string{}
	var out []client.Object
	add := func(field string, o client.Object, wave int) {
		key, err := r.objectKey(o)
		if err != nil {
			bad(field, "%v", err)
			return
		}
		if prev, dup := seen[key]; dup {
			bad(field, "addresses %s, as %s does: one object, two writers", key, prev)
			return
		}
		seen[key] = field
		r.setApplyOrder(o, wave)
		out = append(out, o)
	}
	for _, s := range slots {
		if isNil(s.obj) {
			if s.required {
				bad(s.field, "is required")
			}
			continue
		}
		if s.obj.GetName() != s.name {
			bad(s.field, "is named %q; the reconciler removes this slot by its derived name %q, so it must be named so", s.obj.GetName(), s.name)
			continue
		}
		if ns := s.obj.GetNamespace(); ns != cr.GetNamespace() {
			bad(s.field, "is in namespace %q, not the cluster's %q", ns, cr.GetNamespace())
			continue
		}
		wave := waveGroupPrerequisites
		if s.field == "StatefulSet" || s.field == "PodDisruptionBudget" {
			wave = waveGroupWorkload
		}
		add(s.field, s.obj, wave)
	}
	if err := checkNamespace(cr, "RoleGroupObjects.Extras", objs.Extras); err != nil {
		errs = append(errs, err)
	} else {
		for i, o := range objs.Extras {
			add(fmt.Sprintf("Extras[%d]", i), o, waveGroupPrerequisites)
		}
	}
	return out, errors.Join(errs...)
}

// objectKey names an object by kind, namespace and name.
func (r *Reconciler[CR]) objectKey(o client.Object) (string, error) {
	gvk := o.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" {
		var err error
		if gvk, err = apiutil.GVKForObject(o, r.scheme); err != nil {
			return "", err
		}
	}
	return gvk.GroupKind().String() + " " + o.GetNamespace() + "/" + o.GetName(), nil
}

// setApplyOrder marks o with its apply wave, unless its author chose one.
func (r *Reconciler[CR]) setApplyOrder(o client.Object, wave int) {
	key := r.engine.AnnotationKey(applyOrderSuffix)
	ann := o.GetAnnotations()
	if _, set := ann[key]; set {
		return
	}
	if ann == nil {
		ann = map[string]string{}
	}
	ann[key] = strconv.Itoa(wave)
	o.SetAnnotations(ann)
}
