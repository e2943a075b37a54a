package orphan_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
)

// A pass's Result is data: the caller prints progress, emits events and
// prunes its ledger from it.
func ExampleResult() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	res := orphan.Result{Groups: []orphan.GroupReport{
		{
			RoleGroup: v1alpha1.RoleGroupRef{Role: "server", Group: "old"},
			InLedger:  true,
			Stage:     orphan.StageDraining,
			Since:     now.Add(-6*time.Minute - 48*time.Second),
			Deadline:  now.Add(3*time.Minute + 12*time.Second),
		},
		{
			RoleGroup: v1alpha1.RoleGroupRef{Role: "server", Group: "stale"},
			InLedger:  true,
			Stage:     orphan.StageReclaimed,
			Actions: []orphan.Action{{
				Type:      orphan.ActionDeleted,
				RoleGroup: v1alpha1.RoleGroupRef{Role: "server", Group: "stale"},
				Object:    corev1.ObjectReference{APIVersion: "v1", Kind: "Service", Namespace: "prod", Name: "demo-server-stale-metrics"},
			}},
		},
	}}
	for _, g := range res.Groups {
		line := fmt.Sprintf("%s/%s: %s", g.RoleGroup.Role, g.RoleGroup.Group, g.Stage)
		if left := g.Remaining(now); left > 0 {
			line += fmt.Sprintf(", %s left", left)
		}
		fmt.Println(line)
	}
	for _, a := range res.Actions() {
		fmt.Printf("event %s: %s %s\n", a.Type, a.Object.Kind, a.Object.Name)
	}
	ledger := []v1alpha1.RoleGroupStatus{
		{RoleGroupRef: v1alpha1.RoleGroupRef{Role: "server", Group: "default"}},
		{RoleGroupRef: v1alpha1.RoleGroupRef{Role: "server", Group: "old"}},
		{RoleGroupRef: v1alpha1.RoleGroupRef{Role: "server", Group: "stale"}},
	}
	for _, e := range res.Prune(ledger) {
		fmt.Printf("ledger keeps %s/%s\n", e.Role, e.Group)
	}
	// Output:
	// server/old: Draining, 3m12s left
	// server/stale: Reclaimed
	// event Deleted: Service demo-server-stale-metrics
	// ledger keeps server/default
	// ledger keeps server/old
}
