package builders

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

func TestLabels(t *testing.T) {
	group := Scope{Cluster: "prod", Role: "server", RoleGroup: "default", ProductName: "zookeeper", ProductVersion: "3.9.2"}
	tests := []struct {
		name                          string
		scope                         Scope
		recommended, selector, labels map[string]string
	}{
		{
			name:  "role group",
			scope: group,
			recommended: map[string]string{
				"app.kubernetes.io/name": "zookeeper", "app.kubernetes.io/instance": "prod",
				"app.kubernetes.io/version": "3.9.2", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/role-group": "default", "app.kubernetes.io/managed-by": "opkit",
			},
			selector: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/managed-by": "opkit", "prod-default": "true",
			},
			labels: map[string]string{
				"app.kubernetes.io/name": "zookeeper", "app.kubernetes.io/instance": "prod",
				"app.kubernetes.io/version": "3.9.2", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/role-group": "default", "app.kubernetes.io/managed-by": "opkit",
				"prod-default": "true",
			},
		},
		{
			name:  "role: no role-group label, no marker",
			scope: Scope{Cluster: "prod", Role: "server", ManagedBy: "zk-operator"},
			recommended: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/managed-by": "zk-operator",
			},
			selector: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/managed-by": "zk-operator",
			},
			labels: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/managed-by": "zk-operator",
			},
		},
		{
			name: "illegal name and version dropped",
			scope: Scope{Cluster: "prod", Role: "server", RoleGroup: "g",
				ProductName: "Zoo Keeper", ProductVersion: strings.Repeat("1", 64)},
			recommended: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/role-group": "g", "app.kubernetes.io/managed-by": "opkit",
			},
			selector: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/managed-by": "opkit", "prod-g": "true",
			},
			labels: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/role-group": "g", "app.kubernetes.io/managed-by": "opkit",
				"prod-g": "true",
			},
		},
		{
			name: "cluster labels layered beneath, reserved keys withheld, identity on top",
			scope: Scope{Cluster: "prod", Role: "server", RoleGroup: "g",
				ClusterLabels: map[string]string{
					"restarter.example/enable":                        "true",
					"app.kubernetes.io/instance":                      "other",
					"app.kubernetes.io/role-group":                    "other",
					"prod-g":                                          "false",
					"zk.example/role":                                 "user",
					commonsv1alpha1.LabelMetricsService:               "true",
					commonsv1alpha1.LabelRolePodDisruptionBudget:      "server",
					commonsv1alpha1.LabelRoleGroupPodDisruptionBudget: "g",
				},
				IdentityLabels: map[string]string{"zk.example/role": "server"},
			},
			recommended: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/role-group": "g", "app.kubernetes.io/managed-by": "opkit",
			},
			selector: map[string]string{
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/managed-by": "opkit", "prod-g": "true", "zk.example/role": "server",
			},
			labels: map[string]string{
				"restarter.example/enable":   "true",
				"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server",
				"app.kubernetes.io/role-group": "g", "app.kubernetes.io/managed-by": "opkit",
				"prod-g": "true", "zk.example/role": "server",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.recommended, tt.scope.RecommendedLabels()); diff != "" {
				t.Errorf("RecommendedLabels (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.selector, tt.scope.SelectorLabels()); diff != "" {
				t.Errorf("SelectorLabels (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.labels, tt.scope.Labels()); diff != "" {
				t.Errorf("Labels (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLabelsDoNotAliasClusterLabels(t *testing.T) {
	cluster := map[string]string{"team": "a", commonsv1alpha1.LabelMetricsService: "true"}
	s := Scope{Cluster: "prod", ClusterLabels: cluster}
	got := s.Labels()
	got["team"] = "b"
	if diff := cmp.Diff(map[string]string{"team": "a", commonsv1alpha1.LabelMetricsService: "true"}, cluster); diff != "" {
		t.Errorf("cluster labels changed (-want +got):\n%s", diff)
	}
}
