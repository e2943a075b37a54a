package reconciler

import (
	"errors"
	"testing"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// Conditions take their transition time from the pass, whose time comes
// from Config.Clock, not from the wall clock; a condition that does not
// change keeps its time.
func TestConditionTimesComeFromThePass(t *testing.T) {
	r := &Reconciler[*testCluster]{}
	cr := &testCluster{ObjectMeta: metav1.ObjectMeta{Generation: 1}}
	first := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	r.setConditions(newPass(logr.Discard(), first), cr, nil, failure.ClassOther)
	if len(cr.Status.Conditions) == 0 {
		t.Fatal("no conditions set")
	}
	for _, c := range cr.Status.Conditions {
		if !c.LastTransitionTime.Time.Equal(first) {
			t.Errorf("%s: transition time %s, want the pass's %s", c.Type, c.LastTransitionTime, first)
		}
	}

	later := first.Add(time.Hour)
	r.setConditions(newPass(logr.Discard(), later), cr, errors.New("boom"), failure.ClassOther)
	for _, c := range cr.Status.Conditions {
		want := first
		if c.Type == commonsv1alpha1.ConditionReconcileComplete || c.Type == commonsv1alpha1.ConditionDegraded {
			want = later // these changed status
		}
		if !c.LastTransitionTime.Time.Equal(want) {
			t.Errorf("%s (%s): transition time %s, want %s", c.Type, c.Status, c.LastTransitionTime, want)
		}
	}
}
