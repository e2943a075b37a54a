package v1alpha1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// fullSpec returns a ClusterSpec with every pointer, map, slice and raw
// member set, built afresh on each call so it can serve as the expectation.
func fullSpec() *v1alpha1.ClusterSpec {
	config := func() *v1alpha1.RoleGroupConfigSpec {
		return &v1alpha1.RoleGroupConfigSpec{
			Resources: &v1alpha1.ResourcesSpec{
				CPU:     &v1alpha1.CPUResource{Min: ptr.To(resource.MustParse("250m")), Max: ptr.To(resource.MustParse("1"))},
				Memory:  &v1alpha1.MemoryResource{Limit: ptr.To(resource.MustParse("1Gi"))},
				Storage: &v1alpha1.StorageResource{Capacity: ptr.To(resource.MustParse("10Gi")), StorageClass: ptr.To("fast")},
			},
			Affinity: &runtime.RawExtension{Raw: []byte(`{"podAntiAffinity":{}}`)},
			Logging: &v1alpha1.LoggingSpec{
				EnableVectorAgent: ptr.To(true),
				Containers: map[string]v1alpha1.ContainerLoggingSpec{"main": {
					Console: &v1alpha1.LogLevelSpec{Level: ptr.To(v1alpha1.LogLevelInfo)},
					Loggers: map[string]v1alpha1.LogLevelSpec{v1alpha1.RootLogger: {Level: ptr.To(v1alpha1.LogLevelWarn)}},
				}},
			},
			GracefulShutdownTimeout: ptr.To("30s"),
		}
	}
	overrides := func() v1alpha1.OverridesSpec {
		return v1alpha1.OverridesSpec{
			ConfigOverrides: map[string]map[string]string{"app.properties": {"a": "1"}},
			EnvOverrides:    map[string]string{"A": "1"},
			CliOverrides:    []string{"--a"},
			PodOverrides:    &runtime.RawExtension{Raw: []byte(`{"spec":{}}`)},
		}
	}
	return &v1alpha1.ClusterSpec{
		Image: &v1alpha1.ImageSpec{
			Repo: "quay.io/opkit", ProductVersion: "3.9.2", PlatformVersion: "0.1.0",
			PullPolicy: ptr.To(corev1.PullAlways), PullSecretName: "registry",
		},
		ClusterOperation: &v1alpha1.ClusterOperationSpec{Stopped: true},
		Roles: map[string]v1alpha1.RoleSpec{"server": {
			Config: config(),
			RoleConfig: &v1alpha1.RoleConfigSpec{PodDisruptionBudget: &v1alpha1.PodDisruptionBudgetSpec{
				Enabled: ptr.To(true), MaxUnavailable: ptr.To[int32](1),
			}},
			OverridesSpec: overrides(),
			RoleGroups: map[string]v1alpha1.RoleGroupSpec{"default": {
				Replicas: ptr.To[int32](3), Config: config(), OverridesSpec: overrides(),
			}},
		}},
	}
}

// mutateEverything changes every member reachable through a pointer, map,
// slice or raw byte slice in place.
func mutateEverything(s *v1alpha1.ClusterSpec) {
	s.Image.PullPolicy = ptr.To(corev1.PullNever)
	s.ClusterOperation.Stopped = false
	role := s.Roles["server"]
	for _, c := range []*v1alpha1.RoleGroupConfigSpec{role.Config, role.RoleGroups["default"].Config} {
		*c.Resources.CPU.Min = resource.MustParse("2")
		*c.Resources.Storage.StorageClass = ""
		c.Affinity.Raw[0] = '['
		*c.Logging.EnableVectorAgent = false
		*c.Logging.Containers["main"].Console.Level = v1alpha1.LogLevelTrace
		c.Logging.Containers["main"].Loggers["extra"] = v1alpha1.LogLevelSpec{}
		*c.GracefulShutdownTimeout = "1h"
	}
	for _, o := range []v1alpha1.OverridesSpec{role.OverridesSpec, role.RoleGroups["default"].OverridesSpec} {
		o.ConfigOverrides["app.properties"]["a"] = "2"
		o.EnvOverrides["A"] = "2"
		o.CliOverrides[0] = "--b"
		o.PodOverrides.Raw[0] = '['
	}
	*role.RoleConfig.PodDisruptionBudget.MaxUnavailable = 5
	*role.RoleGroups["default"].Replicas = 0
	role.RoleGroups["new"] = v1alpha1.RoleGroupSpec{}
	s.Roles["new"] = v1alpha1.RoleSpec{}
}

func TestDeepCopyDoesNotShareMemory(t *testing.T) {
	tests := []struct {
		name string
		// pick returns the side to mutate and the side that must stay equal
		// to a fresh spec.
		pick func(original, copied *v1alpha1.ClusterSpec) (mutated, untouched *v1alpha1.ClusterSpec)
	}{
		{
			name: "mutating the copy leaves the original",
			pick: func(o, c *v1alpha1.ClusterSpec) (*v1alpha1.ClusterSpec, *v1alpha1.ClusterSpec) { return c, o },
		},
		{
			name: "mutating the original leaves the copy",
			pick: func(o, c *v1alpha1.ClusterSpec) (*v1alpha1.ClusterSpec, *v1alpha1.ClusterSpec) { return o, c },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			original := fullSpec()
			mutated, untouched := tc.pick(original, original.DeepCopy())
			mutateEverything(mutated)
			if diff := cmp.Diff(fullSpec(), untouched); diff != "" {
				t.Errorf("the untouched side changed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeepCopyOfClusterStatusDoesNotShareMemory(t *testing.T) {
	fresh := func() *v1alpha1.ClusterStatus {
		return &v1alpha1.ClusterStatus{
			Conditions:         []metav1.Condition{{Type: "Available", Status: metav1.ConditionTrue, Reason: "Ready"}},
			ObservedGeneration: 2,
			Objects:            inventory.Inventory{Items: []inventory.Item{{Version: "v1", Kind: "ServiceAccount", Namespace: "ns", Name: "sa"}}},
			Roles:              []v1alpha1.RoleStatus{{Role: "server", Objects: inventory.Inventory{Items: []inventory.Item{{Kind: "PodDisruptionBudget"}}}}},
			RoleGroups: []v1alpha1.RoleGroupStatus{{
				RoleGroupRef: v1alpha1.RoleGroupRef{Role: "server", Group: "default"},
				Objects:      inventory.Inventory{Items: []inventory.Item{{Version: "v1", Kind: "ConfigMap", Name: "cm"}}},
			}},
		}
	}
	original := fresh()
	copied := original.DeepCopy()
	copied.Conditions[0].Status = metav1.ConditionFalse
	copied.RoleGroups[0].Group = "other"
	copied.RoleGroups[0].Objects.Items[0].Name = "other"
	copied.Roles[0].Objects.Items[0].Kind = "other"
	copied.Objects.Items[0].Name = "other"
	if diff := cmp.Diff(fresh(), original); diff != "" {
		t.Errorf("original changed through the copy (-want +got):\n%s", diff)
	}
}
