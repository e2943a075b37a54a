package builders

import (
	"maps"
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
				"app.kubernetes.io/name":     "zookeeper",
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
			name: "cluster labels layered beneath, reserved keys and shard labels withheld, identity on top",
			scope: Scope{Cluster: "prod", Role: "server", RoleGroup: "g",
				ClusterLabels: map[string]string{
					"restarter.example/enable":                            "true",
					"app.kubernetes.io/instance":                          "other",
					"app.kubernetes.io/role-group":                        "other",
					"prod-g":                                              "false",
					"zk.example/role":                                     "user",
					commonsv1alpha1.LabelMetricsService:                   "true",
					commonsv1alpha1.LabelRolePodDisruptionBudget:          "server",
					commonsv1alpha1.LabelRoleGroupPodDisruptionBudget:     "g",
					commonsv1alpha1.LabelShardPrefix + "zk-operator":      "zk-operator-1",
					commonsv1alpha1.LabelShardDrainPrefix + "zk-operator": "zk-operator-2",
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

func TestNarrowerAndWiderScopes(t *testing.T) {
	group := Scope{Namespace: "ns", Cluster: "prod", Role: "server", RoleGroup: "default",
		ProductName: "zookeeper", ProductVersion: "3.9.2", ManagedBy: "zk-operator",
		ClusterLabels: map[string]string{"team": "a"}, IdentityLabels: map[string]string{"zk.example/id": "x"}}
	product := Scope{Namespace: "ns", ProductName: "zookeeper", ProductVersion: "3.9.2", ManagedBy: "zk-operator",
		ClusterLabels: map[string]string{"team": "a"}, IdentityLabels: map[string]string{"zk.example/id": "x"}}
	cluster := product
	cluster.Cluster = "prod"
	role := cluster
	role.Role = "server"
	other := role
	other.RoleGroup = "other"

	if diff := cmp.Diff(cluster, group.ClusterScope()); diff != "" {
		t.Errorf("ClusterScope (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(role, group.RoleScope()); diff != "" {
		t.Errorf("RoleScope (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(other, group.RoleGroupScope("other")); diff != "" {
		t.Errorf("RoleGroupScope (-want +got):\n%s", diff)
	}
	wantCluster := map[string]string{
		"app.kubernetes.io/name": "zookeeper", "app.kubernetes.io/instance": "prod",
		"app.kubernetes.io/managed-by": "zk-operator", "zk.example/id": "x",
	}
	if diff := cmp.Diff(wantCluster, group.ClusterSelectorLabels()); diff != "" {
		t.Errorf("ClusterSelectorLabels (-want +got):\n%s", diff)
	}
	wantRole := maps.Clone(wantCluster)
	wantRole["app.kubernetes.io/component"] = "server"
	if diff := cmp.Diff(wantRole, group.RoleSelectorLabels()); diff != "" {
		t.Errorf("RoleSelectorLabels (-want +got):\n%s", diff)
	}
}

// TestSelectorsOfTwoProductsDoNotOverlap: two products' clusters of one
// name in one namespace, both managed by the default managed-by value, must
// not select each other's pods, at any level.
func TestSelectorsOfTwoProductsDoNotOverlap(t *testing.T) {
	zk := Scope{Namespace: "ns", Cluster: "prod", Role: "server", RoleGroup: "default", ProductName: "zookeeper"}
	kafka := zk
	kafka.ProductName = "kafka"
	selects := func(selector, labels map[string]string) bool {
		for k, v := range selector {
			if labels[k] != v {
				return false
			}
		}
		return true
	}
	for _, level := range []struct {
		name      string
		zk, kafka map[string]string
	}{
		{"cluster", zk.ClusterSelectorLabels(), kafka.ClusterSelectorLabels()},
		{"role", zk.RoleSelectorLabels(), kafka.RoleSelectorLabels()},
		{"role group", zk.SelectorLabels(), kafka.SelectorLabels()},
	} {
		if selects(level.zk, kafka.Labels()) || selects(level.kafka, zk.Labels()) {
			t.Errorf("%s selectors overlap: %v / %v", level.name, level.zk, level.kafka)
		}
		if !selects(level.zk, zk.Labels()) || !selects(level.kafka, kafka.Labels()) {
			t.Errorf("%s selector does not select its own pods", level.name)
		}
	}
}

func TestScopeFieldPath(t *testing.T) {
	s := Scope{Cluster: "prod", Role: "server", RoleGroup: "default"}
	tests := []struct {
		layer commonsv1alpha1.Layer
		want  string
	}{
		{commonsv1alpha1.LayerRoleGroup, "spec.roles.server.roleGroups.default.config.affinity"},
		{commonsv1alpha1.LayerRole, "spec.roles.server.config.affinity"},
		{commonsv1alpha1.LayerCluster, "spec.config.affinity"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, s.FieldPath(tt.layer, "config.affinity")); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.layer, diff)
		}
	}
}
