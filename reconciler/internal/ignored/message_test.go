package ignored

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

func TestMessage(t *testing.T) {
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
			if diff := cmp.Diff(tt.want, Message(tt.change, "the spec")); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}
