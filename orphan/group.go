package orphan

import (
	"context"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/builders"
)

// group is one removed role group during a pass: what the pass read of it
// and what it will report.
type group struct {
	sc  scope
	ref v1alpha1.RoleGroupRef
	// name is the derived base name of the group's objects.
	name string
	now  time.Time

	// sts and cm are the group's StatefulSet and ConfigMap, nil when absent
	// or not the cluster's.
	sts *appsv1.StatefulSet
	cm  *corev1.ConfigMap
	// drainTimedOut is set when the drain ran out of time with pods left.
	drainTimedOut bool
	// read reads the group's objects: the client, or the uncached reader
	// when the client missed something (see confirm.go).
	read client.Reader
	// kinds are the kinds of object the group's ledger entry records; nil
	// when unknown.
	kinds map[schema.GroupKind]bool

	report  GroupReport
	requeue time.Duration
}

func (c *Cleaner) newGroup(sc scope, ref v1alpha1.RoleGroupRef, inLedger bool, kinds map[schema.GroupKind]bool) *group {
	return &group{
		sc:     sc,
		ref:    ref,
		name:   builders.RoleGroupResourceName(sc.cluster, ref.Role, ref.Group),
		now:    c.opts.Clock.Now(),
		read:   c.client,
		kinds:  kinds,
		report: GroupReport{RoleGroup: ref, InLedger: inLedger},
	}
}

// observe reads the group's StatefulSet and ConfigMap.
func (c *Cleaner) observe(ctx context.Context, g *group) error {
	g.sts, g.cm = nil, nil
	sts := &appsv1.StatefulSet{}
	ok, err := c.getOurs(ctx, g, sts, g.name)
	if err != nil {
		return err
	}
	if ok {
		g.sts = sts
	}
	cm := &corev1.ConfigMap{}
	if ok, err = c.getOurs(ctx, g, cm, g.name); err != nil {
		return err
	}
	if ok {
		g.cm = cm
	}
	return nil
}

// anchors returns the objects that carry the group's pending-deletion
// mark: its StatefulSet and its ConfigMap, those that exist.
func (g *group) anchors() []client.Object {
	var out []client.Object
	if g.sts != nil {
		out = append(out, g.sts)
	}
	if g.cm != nil {
		out = append(out, g.cm)
	}
	return out
}

// getOurs reads name into obj through the group's reader and reports
// whether it exists and belongs to the cluster.
func (c *Cleaner) getOurs(ctx context.Context, g *group, obj client.Object, name string) (bool, error) {
	err := g.read.Get(ctx, client.ObjectKey{Namespace: g.sc.namespace, Name: name}, obj)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s %s: %w", c.kind(obj), name, apierr.Classify(err))
	}
	return g.sc.ours(obj, g.ref), nil
}

// record adds an action on obj to the group's report and logs it.
func (c *Cleaner) record(ctx context.Context, g *group, typ ActionType, obj client.Object) {
	a := Action{Type: typ, RoleGroup: g.ref, Object: c.reference(obj)}
	g.report.Actions = append(g.report.Actions, a)
	logAction(ctx, a)
}

// setWindow records the stage's start and deadline on the report.
func (g *group) setWindow(since time.Time, length time.Duration) {
	g.report.Since, g.report.Deadline = since, since.Add(length)
}

// logAction writes the log line of an action: a state transition.
func logAction(ctx context.Context, a Action) {
	msg := map[ActionType]string{
		ActionMarked:                   "marked for deletion",
		ActionScaledDown:               "scaled to zero",
		ActionDrainStarted:             "drain started",
		ActionDeleted:                  "deleted",
		ActionDeletedAfterDrainTimeout: "deleted after the drain timeout, pods left",
		ActionUnmarked:                 "progress marks removed",
	}[a.Type]
	logr.FromContextOrDiscard(ctx).Info(msg, "kind", a.Object.Kind, "name", a.Object.Name)
}
