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
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

func TestIgnoredMessage(t *testing.T) {
	sts := inventory.Ref{Group: "apps", Version: "v1", Kind: "StatefulSet", Namespace: "ns", Name: "disk-server-default"}
	svc := inventory.Ref{Version: "v1", Kind: "Service", Namespace: "ns", Name: "disk"}
	const stsRemedy = "revert the spec to the value the StatefulSet has, or recreate it: " +
		"kubectl delete statefulset disk-server-default --cascade=orphan keeps its pods and claims, " +
		"and the next pass creates it as the spec asks (existing claims keep their size; " +
		"resize them first where their storage class allows expansion)"
	tests := []struct {
		name   string
		change apply.Change
		want   string
	}{
		{name: "nothing ignored", change: apply.Change{Object: sts, Action: apply.ActionUnchanged}},
		{
			name: "a resized claim template",
			change: apply.Change{Object: sts, IgnoredFields: []string{"spec.volumeClaimTemplates"}, IgnoredValues: []apply.IgnoredValue{
				{Path: "spec.volumeClaimTemplates[name=data].spec.resources.requests.storage", Live: "1Gi", Desired: "5Gi"}}},
			want: "StatefulSet disk-server-default: spec.volumeClaimTemplates[name=data].spec.resources.requests.storage is 1Gi, " +
				"the spec asks for 5Gi; the API server does not let spec.volumeClaimTemplates change after creation, so the spec is not applied: " + stsRemedy,
		},
		{
			name: "a claim template added",
			change: apply.Change{Object: sts, IgnoredFields: []string{"spec.volumeClaimTemplates"}, IgnoredValues: []apply.IgnoredValue{
				{Path: "spec.volumeClaimTemplates[name=data]", Desired: `{"metadata":{"name":"data"}}`}}},
			want: `StatefulSet disk-server-default: spec.volumeClaimTemplates[name=data] is none, the spec asks for {"metadata":{"name":"data"}}; ` +
				"the API server does not let spec.volumeClaimTemplates change after creation, so the spec is not applied: " + stsRemedy,
		},
		{
			name:   "fields without values",
			change: apply.Change{Object: svc, IgnoredFields: []string{"spec.clusterIP"}},
			want: "Service disk: spec.clusterIP differ from the spec; the API server does not let spec.clusterIP change after creation, " +
				"so the spec is not applied: revert the spec to the value the object has, or delete the Service so that the next pass creates it as the spec asks",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ignoredMessage(tt.change)); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

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
