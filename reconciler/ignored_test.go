package reconciler

import (
	"errors"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// A pass that could not apply a value of the spec is not complete, and a
// transient failure after it keeps saying so.
func TestIgnoredValuesKeepTheClusterIncomplete(t *testing.T) {
	r := &Reconciler[*testCluster]{}
	cr := &testCluster{ObjectMeta: metav1.ObjectMeta{Generation: 2}}
	now := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	type state struct{ Status, Reason, Message string }
	complete := func() state {
		c := meta.FindStatusCondition(cr.Status.Conditions, commonsv1alpha1.ConditionReconcileComplete)
		return state{string(c.Status), c.Reason, c.Message}
	}
	degraded := func() string {
		return string(meta.FindStatusCondition(cr.Status.Conditions, commonsv1alpha1.ConditionDegraded).Status)
	}

	p := newPass(logr.Discard(), now)
	p.ignore("StatefulSet b: …")
	p.ignore("StatefulSet a: …")
	r.setConditions(p, cr, nil, failure.ClassOther)
	want := state{"False", ReasonImmutableFieldIgnored, "StatefulSet a: …\nStatefulSet b: …"}
	if diff := cmp.Diff(want, complete()); diff != "" {
		t.Errorf("ReconcileComplete (-want +got):\n%s", diff)
	}
	if got := degraded(); got != "False" {
		t.Errorf("Degraded = %s; the cluster runs as before", got)
	}

	transient := failure.Retriable(errors.New("conflict"), time.Second)
	r.setConditions(newPass(logr.Discard(), now), cr, transient, failure.ClassOf(transient))
	if diff := cmp.Diff(want, complete()); diff != "" {
		t.Errorf("after a transient failure, ReconcileComplete (-want +got):\n%s", diff)
	}

	r.setConditions(newPass(logr.Discard(), now), cr, nil, failure.ClassOther)
	if diff := cmp.Diff(state{"True", ReasonComplete, "every object of the spec is applied and ready"}, complete()); diff != "" {
		t.Errorf("once nothing is ignored, ReconcileComplete (-want +got):\n%s", diff)
	}
}
