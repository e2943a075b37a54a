package servertest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
)

// TestMaximumLengthNamesAccepted creates, for real, a StatefulSet and both
// its Services at the longest names RoleGroupResourceName returns, natural
// and shortened.
func TestMaximumLengthNamesAccepted(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	tests := []struct {
		name                 string
		cluster, role, group string
	}{
		// 40 + 1 + 6 + 1 + 4 = 52: the longest natural name.
		{name: "natural", cluster: strings.Repeat("a", 40), role: "server", group: "abcd"},
		{name: "shortened", cluster: strings.Repeat("b", 63), role: "server", group: strings.Repeat("g", 63)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scope := builders.Scope{Namespace: ns, Cluster: tt.cluster, Role: tt.role, RoleGroup: tt.group}
			require.Len(t, scope.ResourceName(), builders.MaxResourceNameLength)
			port := corev1.ServicePort{Name: "metrics", Port: 9404, TargetPort: intstr.FromInt32(9404)}
			sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "main", Image: "registry.example/app:1"}).
				WithReplicas(0).Build()
			require.NoError(t, err)
			headless, err := builders.NewHeadlessService(scope).WithPorts(port).Build()
			require.NoError(t, err)
			metrics, err := builders.NewMetricsService(scope, port, "/metrics").Build()
			require.NoError(t, err)
			for _, obj := range []client.Object{sts, headless, metrics} {
				if err := cp.Client.Create(t.Context(), obj); err != nil {
					t.Errorf("create %T %q: %v", obj, obj.GetName(), err)
				}
			}
		})
	}
}
