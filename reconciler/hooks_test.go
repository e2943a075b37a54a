package reconciler

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHooksRunByPriorityThenRegistration(t *testing.T) {
	var ran []string
	h := NewHooks[Cluster]()
	add := func(name string, prio int, stop bool, fail bool) {
		t.Helper()
		err := h.AddCluster(ClusterHook[Cluster]{Name: name, Priority: prio, StopOnError: stop,
			PreReconcile: func(context.Context, Cluster) error {
				ran = append(ran, name)
				if fail {
					return errors.New(name + " failed")
				}
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	add("late", 10, false, false)
	add("first", -1, false, false)
	add("second", 0, false, true)
	add("third", 0, true, true)
	add("skipped", 5, false, false)
	err := h.clusterPre(context.Background(), nil)
	if diff := cmp.Diff([]string{"first", "second", "third"}, ran); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if err == nil || !strings.Contains(err.Error(), "hook second: second failed") || !strings.Contains(err.Error(), "hook third: third failed") {
		t.Errorf("error %v does not name both failing hooks", err)
	}
}

func TestHookRegistrationChecksNames(t *testing.T) {
	h := NewHooks[Cluster]()
	if err := h.AddRole(RoleHook[Cluster]{}); err == nil {
		t.Error("an unnamed hook was accepted")
	}
	if err := h.AddRoleGroup(RoleGroupHook[Cluster]{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := h.AddRoleGroup(RoleGroupHook[Cluster]{Name: "x"}); err == nil {
		t.Error("a duplicate name was accepted")
	}
	var none *Hooks[Cluster]
	if err := none.rolePre(context.Background(), nil, "r"); err != nil {
		t.Errorf("a nil registry ran something: %v", err)
	}
}
