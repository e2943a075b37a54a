package shard

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func lease(name, version string, holder *string) coordinationv1.Lease {
	return coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: version},
		Spec:       coordinationv1.LeaseSpec{HolderIdentity: holder, LeaseDurationSeconds: ptr.To[int32](10)},
	}
}

// TestObserverCountsAMemberGoneOnlyAfterItsLeaseAndTheMargin walks one
// member's Lease through its states as seen by another: the lease lasts 10s
// and the margin is 5s, measured from when the observer saw each version.
func TestObserverCountsAMemberGoneOnlyAfterItsLeaseAndTheMargin(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		name    string
		at      time.Duration
		version string
		want    View
	}{
		{name: "first seen", at: 0, version: "1", want: View{Live: []string{"a", "b"}}},
		{name: "unchanged within its duration", at: 9 * time.Second, version: "1", want: View{Live: []string{"a", "b"}}},
		{name: "renewed", at: 9 * time.Second, version: "2", want: View{Live: []string{"a", "b"}}},
		{name: "silent for its duration", at: 19 * time.Second, version: "2", want: View{Live: []string{"a"}, Expired: []string{"b"}}},
		{name: "silent within the margin", at: 23 * time.Second, version: "2", want: View{Live: []string{"a"}, Expired: []string{"b"}}},
		{name: "silent past the margin", at: 24 * time.Second, version: "2", want: View{
			Live: []string{"a"}, Gone: []LeaseRef{{Name: "b", ResourceVersion: "2"}},
		}},
		{name: "renewed again", at: 30 * time.Second, version: "3", want: View{Live: []string{"a", "b"}}},
	}
	o := observer{defaultDuration: time.Minute, margin: 5 * time.Second}
	for _, s := range steps {
		leases := []coordinationv1.Lease{lease("b", s.version, ptr.To("b")), lease("a", "7", ptr.To("a"))}
		got := o.observe(leases, start.Add(s.at), "a", true)
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("%s (at %s): view (-want +got):\n%s", s.name, s.at, diff)
		}
	}
}

func TestObserverCountsAReleasedLeaseGoneAtOnce(t *testing.T) {
	o := observer{defaultDuration: time.Minute, margin: time.Minute}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	got := o.observe([]coordinationv1.Lease{
		lease("c", "4", nil), lease("b", "5", ptr.To("someone-else")), lease("a", "6", ptr.To("a")),
	}, now, "self", true)
	want := View{Live: []string{"a"}, Gone: []LeaseRef{{Name: "b", ResourceVersion: "5"}, {Name: "c", ResourceVersion: "4"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("view (-want +got):\n%s", diff)
	}
}

func TestObserverLeavesOutItselfWhenNotLive(t *testing.T) {
	o := observer{defaultDuration: time.Minute, margin: time.Minute}
	got := o.observe([]coordinationv1.Lease{lease("self", "1", ptr.To("self"))}, time.Now(), "self", false)
	if diff := cmp.Diff(View{}, got); diff != "" {
		t.Errorf("view (-want +got):\n%s", diff)
	}
}
