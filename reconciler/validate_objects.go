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
	l := &objectList[CR]{r: r, seen: map[string]string{}}
	for _, s := range slots {
		l.addSlot(cr, s)
	}
	if err := checkNamespace(cr, "RoleGroupObjects.Extras", objs.Extras); err != nil {
		l.errs = append(l.errs, err)
	} else {
		for i, o := range objs.Extras {
			l.add(fmt.Sprintf("Extras[%d]", i), o, waveGroupPrerequisites)
		}
	}
	return l.out, errors.Join(l.errs...)
}

// objectList collects a role group's objects, each once, with the errors
// of those that cannot be applied.
type objectList[CR Object[CR]] struct {
	r    *Reconciler[CR]
	seen map[string]string
	out  []client.Object
	errs []error
}

func (l *objectList[CR]) bad(field, format string, args ...any) {
	l.errs = append(l.errs, failure.Invalid(failure.AuthorOperator, "RoleGroupObjects."+field, format, args...))
}

// addSlot adds a fixed slot's object: present when required, named as the
// reconciler derives the name, in the cluster's namespace.
func (l *objectList[CR]) addSlot(cr CR, s slot) {
	switch {
	case isNil(s.obj):
		if s.required {
			l.bad(s.field, "is required")
		}
		return
	case s.obj.GetName() != s.name:
		l.bad(s.field, "is named %q; the reconciler removes this slot by its derived name %q, so it must be named so", s.obj.GetName(), s.name)
		return
	case s.obj.GetNamespace() != cr.GetNamespace():
		l.bad(s.field, "is in namespace %q, not the cluster's %q", s.obj.GetNamespace(), cr.GetNamespace())
		return
	}
	wave := waveGroupPrerequisites
	if s.field == "StatefulSet" || s.field == "PodDisruptionBudget" {
		wave = waveGroupWorkload
	}
	l.add(s.field, s.obj, wave)
}

// add adds an object in its apply wave, unless another field addresses it.
func (l *objectList[CR]) add(field string, o client.Object, wave int) {
	key, err := l.r.objectKey(o)
	if err != nil {
		l.bad(field, "%v", err)
		return
	}
	if prev, dup := l.seen[key]; dup {
		l.bad(field, "addresses %s, as %s does: one object, two writers", key, prev)
		return
	}
	l.seen[key] = field
	l.r.setApplyOrder(o, wave)
	l.out = append(l.out, o)
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
