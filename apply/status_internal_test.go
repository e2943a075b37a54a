package apply

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

func obj(apiVersion, kind string, generation int64, status map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind,
		"metadata": map[string]any{"name": "x", "generation": generation}}}
	if status != nil {
		u.Object["status"] = status
	}
	return u
}

func conds(kv ...string) map[string]any {
	var list []any
	for i := 0; i < len(kv); i += 2 {
		list = append(list, map[string]any{"type": kv[i], "status": kv[i+1]})
	}
	return map[string]any{"conditions": list}
}

// stsStatus is the status of a settled one-replica StatefulSet that
// observed generation og.
func stsStatus(og int64) map[string]any {
	return map[string]any{"observedGeneration": og, "replicas": int64(1), "readyReplicas": int64(1),
		"currentReplicas": int64(1), "updatedReplicas": int64(1), "availableReplicas": int64(1),
		"currentRevision": "x-1", "updateRevision": "x-1"}
}

// dsStatus is the status of a settled DaemonSet on one node that
// observed generation og.
func dsStatus(og int64) map[string]any {
	return map[string]any{"observedGeneration": og, "desiredNumberScheduled": int64(1), "currentNumberScheduled": int64(1),
		"numberReady": int64(1), "numberAvailable": int64(1), "updatedNumberScheduled": int64(1)}
}

func TestReadiness(t *testing.T) {
	tests := []struct {
		name string
		obj  *unstructured.Unstructured
		hint string
		want kstatus.Status
	}{
		{"crd established only", obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", 1, conds("Established", "True")), "", kstatus.InProgressStatus},
		{"crd established and names accepted", obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", 1, conds("Established", "True", "NamesAccepted", "True")), "", kstatus.CurrentStatus},
		{"apiservice unavailable", obj("apiregistration.k8s.io/v1", "APIService", 1, conds("Available", "False")), "", kstatus.InProgressStatus},
		{"apiservice available", obj("apiregistration.k8s.io/v1", "APIService", 1, conds("Available", "True")), "", kstatus.CurrentStatus},
		{"job running", obj("batch/v1", "Job", 1, map[string]any{"startTime": "2026-01-01T00:00:00Z", "active": int64(1)}), "", kstatus.InProgressStatus},
		{"job complete", obj("batch/v1", "Job", 1, conds("Complete", "True")), "", kstatus.CurrentStatus},
		{"job failed", obj("batch/v1", "Job", 1, conds("Failed", "True")), "", kstatus.FailedStatus},
		{"statefulset change not observed", obj("apps/v1", "StatefulSet", 2, stsStatus(1)), "", kstatus.InProgressStatus},
		{"statefulset observed", obj("apps/v1", "StatefulSet", 2, stsStatus(2)), "", kstatus.CurrentStatus},
		{"statefulset carrying a deleted namesake's status", obj("apps/v1", "StatefulSet", 1, stsStatus(2)), "", kstatus.CurrentStatus},
		{"statefulset with a namesake's status, not ready", obj("apps/v1", "StatefulSet", 1, func() map[string]any { s := stsStatus(2); s["readyReplicas"] = int64(0); return s }()), "", kstatus.InProgressStatus},
		{"daemonset carrying a deleted namesake's status", obj("apps/v1", "DaemonSet", 1, dsStatus(3)), "", kstatus.CurrentStatus},
		{"deployment ahead stays in progress", obj("apps/v1", "Deployment", 1, map[string]any{"observedGeneration": int64(2), "replicas": int64(0)}), "", kstatus.InProgressStatus},
		{"custom without status", obj("example.com/v1", "Thing", 1, nil), "", kstatus.CurrentStatus},
		{"hint observed generation missing", obj("example.com/v1", "Thing", 2, map[string]any{}), "has-observed-generation", kstatus.InProgressStatus},
		{"hint observed generation current", obj("example.com/v1", "Thing", 2, map[string]any{"observedGeneration": int64(2)}), "has-observed-generation", kstatus.CurrentStatus},
		{"hint ready condition missing", obj("example.com/v1", "Thing", 1, map[string]any{}), "has-ready-condition", kstatus.InProgressStatus},
		{"hint conditions partly true", obj("example.com/v1", "Thing", 1, conds("A", "True", "B", "False")), "conditions=A;B", kstatus.InProgressStatus},
		{"hint conditions all true", obj("example.com/v1", "Thing", 1, conds("A", "True", "B", "True")), "conditions=A;B", kstatus.CurrentStatus},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h statusHint
			if tt.hint != "" {
				var err error
				if h, err = parseStatusHint(tt.hint); err != nil {
					t.Fatal(err)
				}
			}
			got, err := readiness(tt.obj, h)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}
