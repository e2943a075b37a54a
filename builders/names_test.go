package builders

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/validation"
)

func TestRoleGroupResourceName(t *testing.T) {
	long := strings.Repeat("c", 60)
	tests := []struct {
		name                 string
		cluster, role, group string
		want                 string
	}{
		{name: "natural", cluster: "prod", role: "server", group: "default", want: "prod-server-default"},
		{name: "natural at the bound", cluster: strings.Repeat("a", 40), role: "server", group: "abcd",
			want: strings.Repeat("a", 40) + "-server-abcd"},
		{name: "one past the bound", cluster: strings.Repeat("a", 40), role: "server", group: "abcde",
			want: strings.Repeat("a", 40) + "-se-" + hashOf(strings.Repeat("a", 40), "server", "abcde")},
		{name: "long cluster", cluster: long, role: "r", group: "g",
			want: strings.Repeat("c", 43) + "-" + hashOf(long, "r", "g")},
		{name: "dotted cluster is not a DNS label", cluster: "my.cluster", role: "r", group: "g",
			want: "my-cluster-r-g-" + hashOf("my.cluster", "r", "g")},
		{name: "leading digit", cluster: "1prod", role: "r", group: "g",
			want: "prod-r-g-" + hashOf("1prod", "r", "g")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RoleGroupResourceName(tt.cluster, tt.role, tt.group)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RoleGroupResourceName (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRoleGroupResourceNameKeepsInputsApart(t *testing.T) {
	a := RoleGroupResourceName(strings.Repeat("a", 50)+"-x", "r", "g")
	b := RoleGroupResourceName(strings.Repeat("a", 50), "x-r", "g")
	if a == b {
		t.Fatalf("different inputs share the name %q", a)
	}
}

func TestServiceAccountName(t *testing.T) {
	tests := []struct {
		name, kind, cluster, want string
	}{
		{name: "natural", kind: "ZookeeperCluster", cluster: "prod", want: "zookeepercluster-prod"},
		{name: "bounded", kind: "ZookeeperCluster", cluster: strings.Repeat("p", 60),
			want: "zookeepercluster-" + strings.Repeat("p", 37) + "-" + hashOf("zookeepercluster", strings.Repeat("p", 60))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ServiceAccountName(tt.kind, tt.cluster)); diff != "" {
				t.Errorf("ServiceAccountName (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRoleGroupMarkerLabelKey(t *testing.T) {
	tests := []struct {
		name, cluster, group, want string
	}{
		{name: "natural", cluster: "prod", group: "default", want: "prod-default"},
		// 43 + 1 + 19 = 63: still legal, so it must not change.
		{name: "natural at 63", cluster: strings.Repeat("a", 43), group: strings.Repeat("g", 19),
			want: strings.Repeat("a", 43) + "-" + strings.Repeat("g", 19)},
		// A dotted cluster name is still a legal key name.
		{name: "dots kept", cluster: "my.cluster", group: "g", want: "my.cluster-g"},
		{name: "65 is substituted", cluster: strings.Repeat("a", 43), group: strings.Repeat("g", 21),
			want: strings.Repeat("a", 43) + "-" + strings.Repeat("g", 10) + "-" + hashOf(strings.Repeat("a", 43), strings.Repeat("g", 21))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RoleGroupMarkerLabelKey(tt.cluster, tt.group)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RoleGroupMarkerLabelKey (-want +got):\n%s", diff)
			}
			if errs := validation.IsQualifiedName(got); len(errs) > 0 {
				t.Errorf("not a label key: %v", errs)
			}
		})
	}
}

// hashOf repeats the documented suffix rule independently of boundedName:
// the first 8 hex characters of sha256 over the parts joined by NUL.
func hashOf(parts ...string) string { return sha256Hex(strings.Join(parts, "\x00"))[:8] }

// FuzzDerivedNames checks every name derived from a role group against the
// validation functions the API server uses.
func FuzzDerivedNames(f *testing.F) {
	f.Add("prod", "server", "default")
	f.Add(strings.Repeat("a", 253), "r", "g")
	f.Add("a.b.c", "Coordinator", "my_group")
	f.Add("", "", "")
	f.Add("9", "-", "é")
	f.Fuzz(func(t *testing.T, cluster, role, group string) {
		name := RoleGroupResourceName(cluster, role, group)
		if len(name) > MaxResourceNameLength {
			t.Fatalf("%q is longer than %d", name, MaxResourceNameLength)
		}
		check := func(what string, errs []string) {
			if len(errs) > 0 {
				t.Fatalf("%s for (%q,%q,%q): %v", what, cluster, role, group, errs)
			}
		}
		check("statefulset name", validation.IsDNS1123Subdomain(name))
		check("pod name", validation.IsDNS1123Label(name+"-"+strconv.Itoa(2147483647)))
		check("pod-name label", validation.IsValidLabelValue(name+"-"+strconv.Itoa(2147483647)))
		check("controller-revision-hash label", validation.IsValidLabelValue(name+"-"+strings.Repeat("b", 10)))
		check("service", validation.IsDNS1035Label(name))
		check("headless service", validation.IsDNS1035Label(HeadlessServiceName(name)))
		check("metrics service", validation.IsDNS1035Label(MetricsServiceName(name)))
		check("role name", validation.IsDNS1035Label(RoleResourceName(cluster, role)))
		check("service account", validation.IsDNS1123Label(ServiceAccountName(role, cluster)))
		check("marker key", validation.IsQualifiedName(RoleGroupMarkerLabelKey(cluster, group)))
		if RoleGroupResourceName(cluster, role, group) != name {
			t.Fatal("not deterministic")
		}
		natural := cluster + "-" + role + "-" + group
		if len(natural) <= MaxResourceNameLength && len(validation.IsDNS1035Label(natural)) == 0 && name != natural {
			t.Fatalf("legal natural name %q replaced by %q", natural, name)
		}
		key := cluster + "-" + group
		if len(validation.IsQualifiedName(key)) == 0 && RoleGroupMarkerLabelKey(cluster, group) != key {
			t.Fatalf("legal natural key %q replaced", key)
		}
	})
}
