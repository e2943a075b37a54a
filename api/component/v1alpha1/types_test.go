package v1alpha1_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// A deep copy keeps what references loaded and shares nothing with the
// original.
func TestDeepCopyKeepsLoadedReferences(t *testing.T) {
	cm := componentv1alpha1.ConfigMapReference{Name: "settings"}
	cm.Load(map[string][]byte{"a": []byte("1")}, true)
	sec := componentv1alpha1.SecretReference{Name: "creds"}
	sec.Load(map[string][]byte{"b": []byte("2")}, true)

	cmCopy, secCopy := cm.DeepCopy(), sec.DeepCopy()
	if diff := cmp.Diff(cm.Data(), cmCopy.Data()); diff != "" {
		t.Errorf("ConfigMap data (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(sec.Data(), secCopy.Data()); diff != "" {
		t.Errorf("Secret data (-want +got):\n%s", diff)
	}
	secCopy.Data()["b"][0] = 'x'
	if string(sec.Data()["b"]) != "2" {
		t.Errorf("the copy shares its bytes with the original")
	}
}

func TestReferencesReportWhatTheyFound(t *testing.T) {
	data := map[string][]byte{"k": []byte("v")}
	tests := []struct {
		name   string
		ref    componentv1alpha1.Reference
		data   map[string][]byte
		exists bool
		found  bool
		want   map[string]any
	}{
		{"config map", &componentv1alpha1.ConfigMapReference{Name: "a"}, data, true, true, map[string]any{"data": map[string]any{"k": "v"}}},
		{"missing config map", &componentv1alpha1.ConfigMapReference{Name: "a"}, nil, false, false, map[string]any{"data": map[string]any{}}},
		{"config map key", &componentv1alpha1.ConfigMapKeyReference{Name: "a", Key: "k"}, data, true, true, map[string]any{"value": "v"}},
		{"missing config map key", &componentv1alpha1.ConfigMapKeyReference{Name: "a", Key: "x"}, data, true, false, map[string]any{"value": ""}},
		{"secret", &componentv1alpha1.SecretReference{Name: "a"}, data, true, true, map[string]any{"data": map[string]any{"k": "v"}}},
		{"secret key", &componentv1alpha1.SecretKeyReference{Name: "a", Key: "k"}, data, true, true, map[string]any{"value": "v"}},
		{"missing secret", &componentv1alpha1.SecretKeyReference{Name: "a", Key: "k"}, nil, false, false, map[string]any{"value": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.ref.Load(tt.data, tt.exists)
			if got := tt.ref.Found(); got != tt.found {
				t.Errorf("Found() = %v, want %v", got, tt.found)
			}
			if diff := cmp.Diff(tt.want, tt.ref.Resolved()); diff != "" {
				t.Errorf("Resolved() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSpecBlocksAnswerTheirInterfaces(t *testing.T) {
	d := func(v time.Duration) *metav1.Duration { return &metav1.Duration{Duration: v} }
	kc := componentv1alpha1.ClientSpec{KubeConfig: &componentv1alpha1.KubeConfigSpec{SecretRef: componentv1alpha1.SecretKeyReference{Name: "remote", Key: "value"}}}
	kc.KubeConfig.SecretRef.Load(map[string][]byte{"value": []byte("apiVersion: v1")}, true)
	got := map[string]any{
		"requeue":    (&componentv1alpha1.RequeueSpec{RequeueInterval: d(time.Minute)}).GetRequeueInterval(),
		"retry":      (&componentv1alpha1.RetrySpec{}).GetRetryInterval(),
		"timeout":    (&componentv1alpha1.TimeoutSpec{Timeout: d(time.Second)}).GetTimeout(),
		"reapply":    (&componentv1alpha1.ReapplySpec{ReapplyInterval: d(time.Hour)}).GetReapplyInterval(),
		"kubeconfig": string(kc.GetKubeConfig()),
		"none":       (&componentv1alpha1.ClientSpec{}).GetKubeConfig() == nil,
	}
	want := map[string]any{
		"requeue": time.Minute, "retry": time.Duration(0), "timeout": time.Second, "reapply": time.Hour,
		"kubeconfig": "apiVersion: v1", "none": true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The status keeps the inventory and the Ready condition through a copy.
func TestStatusReadyCondition(t *testing.T) {
	s := componentv1alpha1.Status{
		State:      componentv1alpha1.StateReady,
		Conditions: []metav1.Condition{{Type: componentv1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: componentv1alpha1.ReasonReady}},
		Inventory:  inventory.Inventory{Items: []inventory.Item{{Version: "v1", Kind: "ConfigMap", Name: "a"}}},
	}
	c := s.DeepCopy()
	if !c.IsReady() || c.ReadyCondition().Reason != componentv1alpha1.ReasonReady {
		t.Fatalf("copy lost the state: %+v", c)
	}
	c.Inventory.Items[0].Name = "b"
	if s.Inventory.Items[0].Name != "a" {
		t.Errorf("the copy shares its inventory with the original")
	}
	if (&componentv1alpha1.Status{}).ReadyCondition() != nil {
		t.Errorf("an empty status has a Ready condition")
	}
}
