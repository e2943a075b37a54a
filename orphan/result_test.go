package orphan_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
)

func TestResultSplitsPendingFromReclaimed(t *testing.T) {
	a, b, c := v1alpha1.RoleGroupRef{Role: "r", Group: "a"}, v1alpha1.RoleGroupRef{Role: "r", Group: "b"}, v1alpha1.RoleGroupRef{Role: "r", Group: "c"}
	res := orphan.Result{Groups: []orphan.GroupReport{
		{RoleGroup: a, Stage: orphan.StageReclaimed},
		{RoleGroup: b, Stage: orphan.StageDraining},
		{RoleGroup: c, Stage: orphan.StageUnknown},
	}}
	if diff := cmp.Diff([]v1alpha1.RoleGroupRef{b, c}, res.Pending()); diff != "" {
		t.Errorf("Pending (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]v1alpha1.RoleGroupRef{a}, res.Reclaimed()); diff != "" {
		t.Errorf("Reclaimed (-want +got):\n%s", diff)
	}
	entry := func(ref v1alpha1.RoleGroupRef) v1alpha1.RoleGroupStatus {
		return v1alpha1.RoleGroupStatus{RoleGroupRef: ref}
	}
	ledger := []v1alpha1.RoleGroupStatus{entry(c), entry(a), entry(b)}
	if diff := cmp.Diff([]v1alpha1.RoleGroupStatus{entry(c), entry(b)}, res.Prune(ledger)); diff != "" {
		t.Errorf("Prune (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]v1alpha1.RoleGroupStatus{entry(c), entry(a), entry(b)}, ledger); diff != "" {
		t.Errorf("Prune modified the ledger (-want +got):\n%s", diff)
	}
}

func TestRemaining(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		deadline time.Time
		want     time.Duration
	}{
		{"no deadline", time.Time{}, 0},
		{"ahead", now.Add(90 * time.Second), 90 * time.Second},
		{"passed", now.Add(-time.Second), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (orphan.GroupReport{Deadline: tt.deadline}).Remaining(now); got != tt.want {
				t.Errorf("Remaining = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestActionsKeepPassOrder(t *testing.T) {
	act := func(typ orphan.ActionType, name string) orphan.Action {
		a := orphan.Action{Type: typ}
		a.Object.Name = name
		return a
	}
	res := orphan.Result{
		Unmarked: []orphan.Action{act(orphan.ActionUnmarked, "readded")},
		Groups: []orphan.GroupReport{
			{Actions: []orphan.Action{act(orphan.ActionScaledDown, "a")}},
			{Actions: []orphan.Action{act(orphan.ActionDeleted, "b1"), act(orphan.ActionDeleted, "b2")}},
		},
		RolePDBs: []orphan.Action{act(orphan.ActionDeleted, "role-pdb")},
	}
	var got []string
	for _, a := range res.Actions() {
		got = append(got, string(a.Type)+" "+a.Object.Name)
	}
	want := []string{"Unmarked readded", "ScaledDown a", "Deleted b1", "Deleted b2", "Deleted role-pdb"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Actions (-want +got):\n%s", diff)
	}
}
