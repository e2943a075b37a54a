package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// A container that asks for privileges gets the restricted defaults
// except allowPrivilegeEscalation, which the API server refuses beside
// them; every other container gets all of them.
func TestHardenContainerLeavesOutWhatContradictsTheAsk(t *testing.T) {
	// restricted is the restricted context with edit applied.
	restricted := func(edit func(*corev1.SecurityContext)) *corev1.SecurityContext {
		sc := RestrictedContainerSecurityContext()
		edit(sc)
		return sc
	}
	sysAdmin := &corev1.Capabilities{Add: []corev1.Capability{"NET_ADMIN", "CAP_SYS_ADMIN"}}
	bind := &corev1.Capabilities{Add: []corev1.Capability{"NET_BIND_SERVICE"}}
	tests := []struct {
		name string
		sc   *corev1.SecurityContext
		want *corev1.SecurityContext
	}{
		{name: "nothing stated", want: RestrictedContainerSecurityContext()},
		{
			name: "privileged",
			sc:   &corev1.SecurityContext{Privileged: ptr.To(true)},
			want: restricted(func(sc *corev1.SecurityContext) { sc.Privileged, sc.AllowPrivilegeEscalation = ptr.To(true), nil }),
		},
		{
			name: "privileged false",
			sc:   &corev1.SecurityContext{Privileged: ptr.To(false)},
			want: restricted(func(sc *corev1.SecurityContext) { sc.Privileged = ptr.To(false) }),
		},
		{
			name: "CAP_SYS_ADMIN added",
			sc:   &corev1.SecurityContext{Capabilities: sysAdmin.DeepCopy()},
			want: restricted(func(sc *corev1.SecurityContext) {
				sc.Capabilities, sc.AllowPrivilegeEscalation = sysAdmin.DeepCopy(), nil
			}),
		},
		{
			name: "another capability added",
			sc:   &corev1.SecurityContext{Capabilities: bind.DeepCopy()},
			want: restricted(func(sc *corev1.SecurityContext) { sc.Capabilities = bind.DeepCopy() }),
		},
		{
			name: "privileged with escalation stated true",
			sc:   &corev1.SecurityContext{Privileged: ptr.To(true), AllowPrivilegeEscalation: ptr.To(true)},
			want: restricted(func(sc *corev1.SecurityContext) {
				sc.Privileged, sc.AllowPrivilegeEscalation = ptr.To(true), ptr.To(true)
			}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := corev1.Container{Name: "main", SecurityContext: tt.sc}
			HardenContainer(&c, Hardening{})
			if diff := cmp.Diff(tt.want, c.SecurityContext); diff != "" {
				t.Errorf("security context (-want +got):\n%s", diff)
			}
		})
	}
}

// escalationCase is podOverrides layers over a main container whose
// security context the product built, and the violations expected.
type escalationCase struct {
	name        string
	built       *corev1.SecurityContext
	role, group string
	want        []string
}

const (
	groupOverrides = "spec.roles.server.roleGroups.default.podOverrides"
	roleOverrides  = "spec.roles.server.podOverrides"
	refusedPair    = " with allowPrivilegeEscalation false, which the API server refuses (such a container can always escalate); "
	leaveOut       = "leave allowPrivilegeEscalation out (the restricted defaults then set none) or set it to true"
)

// mainSecurity is a layer setting the main container's securityContext.
func mainSecurity(sc string) string {
	return `{"spec":{"containers":[{"name":"main","securityContext":` + sc + `}]}}`
}

func runEscalationCases(t *testing.T, tests []escalationCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := overrideBase()
			base.Spec.Containers[0].SecurityContext = tt.built
			_, err := ApplyPodOverrides(testScope(), base, nil,
				PodOverride{Layer: commonsv1alpha1.LayerRole, Patch: []byte(tt.role)},
				PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(tt.group)})
			if diff := cmp.Diff(tt.want, messages(t, err)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
			if err != nil {
				require.Equal(t, failure.AuthorUser, failure.AuthorOf(err))
			}
		})
	}
}

// Privileges asked alone are applied; stated beside allowPrivilegeEscalation
// false they are refused, naming the field of the layer that wrote them.
func TestApplyPodOverridesEscalation(t *testing.T) {
	runEscalationCases(t, []escalationCase{
		{name: "privileged alone", group: mainSecurity(`{"privileged":true}`)},
		{name: "CAP_SYS_ADMIN alone", group: mainSecurity(`{"capabilities":{"add":["CAP_SYS_ADMIN"]}}`)},
		{name: "privileged with escalation allowed", group: mainSecurity(`{"privileged":true,"allowPrivilegeEscalation":true}`)},
		{
			name:  "privileged with escalation refused in one layer",
			group: mainSecurity(`{"privileged":true,"allowPrivilegeEscalation":false}`),
			want:  []string{groupOverrides + ".spec.containers[name=main].securityContext: privileged: true" + refusedPair + leaveOut},
		},
		{
			name:  "escalation refused by the role, privileges asked by the group",
			role:  mainSecurity(`{"allowPrivilegeEscalation":false}`),
			group: mainSecurity(`{"capabilities":{"add":["CAP_SYS_ADMIN"]}}`),
			want:  []string{groupOverrides + ".spec.containers[name=main].securityContext: capability CAP_SYS_ADMIN added" + refusedPair + leaveOut},
		},
		{
			name:  "an init container the override adds",
			group: `{"spec":{"initContainers":[{"name":"tune","image":"busybox","securityContext":{"privileged":true,"allowPrivilegeEscalation":false}}]}}`,
			want:  []string{groupOverrides + ".spec.initContainers[name=tune].securityContext: privileged: true" + refusedPair + leaveOut},
		},
	})
}

// Against a product that states allowPrivilegeEscalation false, privileges
// need the override to allow escalation; the product's own pair is not the
// override's to answer for.
func TestApplyPodOverridesEscalationAgainstTheProduct(t *testing.T) {
	refuses := &corev1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false)}
	runEscalationCases(t, []escalationCase{
		{
			name:  "privileges asked by the role",
			built: refuses,
			role:  mainSecurity(`{"privileged":true}`),
			want: []string{roleOverrides + ".spec.containers[name=main].securityContext: privileged: true" + refusedPair +
				"the product's container sets allowPrivilegeEscalation to false: state allowPrivilegeEscalation: true beside it"},
		},
		{name: "escalation allowed by the group", built: refuses, group: mainSecurity(`{"privileged":true,"allowPrivilegeEscalation":true}`)},
		{
			name:  "the product's own pair",
			built: &corev1.SecurityContext{Privileged: ptr.To(true), AllowPrivilegeEscalation: ptr.To(false)},
			group: `{"metadata":{"labels":{"a":"b"}}}`,
		},
	})
}

// A privileged podOverride reaches the built StatefulSet as asked, with the
// rest of the restricted defaults and no allowPrivilegeEscalation.
func TestStatefulSetWithAPrivilegedOverride(t *testing.T) {
	sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).WithPodOverrides(PodOverride{
		Layer: commonsv1alpha1.LayerRoleGroup,
		Patch: []byte(`{"spec":{"containers":[{"name":"main","securityContext":{"privileged":true}}]}}`),
	}).Build()
	require.NoError(t, err)
	want := RestrictedContainerSecurityContext()
	want.Privileged, want.AllowPrivilegeEscalation = ptr.To(true), nil
	if diff := cmp.Diff(want, sts.Spec.Template.Spec.Containers[0].SecurityContext); diff != "" {
		t.Errorf("security context (-want +got):\n%s", diff)
	}
}
