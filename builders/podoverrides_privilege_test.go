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
	tests := []struct {
		name string
		sc   *corev1.SecurityContext
		want *corev1.SecurityContext
	}{
		{
			name: "nothing stated",
			want: RestrictedContainerSecurityContext(),
		},
		{
			name: "privileged",
			sc:   &corev1.SecurityContext{Privileged: ptr.To(true)},
			want: func() *corev1.SecurityContext {
				sc := RestrictedContainerSecurityContext()
				sc.Privileged, sc.AllowPrivilegeEscalation = ptr.To(true), nil
				return sc
			}(),
		},
		{
			name: "privileged false",
			sc:   &corev1.SecurityContext{Privileged: ptr.To(false)},
			want: func() *corev1.SecurityContext {
				sc := RestrictedContainerSecurityContext()
				sc.Privileged = ptr.To(false)
				return sc
			}(),
		},
		{
			name: "CAP_SYS_ADMIN added",
			sc:   &corev1.SecurityContext{Capabilities: &corev1.Capabilities{Add: []corev1.Capability{"NET_ADMIN", "CAP_SYS_ADMIN"}}},
			want: func() *corev1.SecurityContext {
				sc := RestrictedContainerSecurityContext()
				sc.Capabilities, sc.AllowPrivilegeEscalation = &corev1.Capabilities{Add: []corev1.Capability{"NET_ADMIN", "CAP_SYS_ADMIN"}}, nil
				return sc
			}(),
		},
		{
			name: "another capability added",
			sc:   &corev1.SecurityContext{Capabilities: &corev1.Capabilities{Add: []corev1.Capability{"NET_BIND_SERVICE"}}},
			want: func() *corev1.SecurityContext {
				sc := RestrictedContainerSecurityContext()
				sc.Capabilities = &corev1.Capabilities{Add: []corev1.Capability{"NET_BIND_SERVICE"}}
				return sc
			}(),
		},
		{
			name: "privileged with escalation stated true",
			sc:   &corev1.SecurityContext{Privileged: ptr.To(true), AllowPrivilegeEscalation: ptr.To(true)},
			want: func() *corev1.SecurityContext {
				sc := RestrictedContainerSecurityContext()
				sc.Privileged, sc.AllowPrivilegeEscalation = ptr.To(true), ptr.To(true)
				return sc
			}(),
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

// Privileges asked alone are applied; stated beside allowPrivilegeEscalation
// false they are refused, naming the layer's field, whoever stated the false.
func TestApplyPodOverridesEscalation(t *testing.T) {
	const group = "spec.roles.server.roleGroups.default.podOverrides"
	const role = "spec.roles.server.podOverrides"
	main := func(sc string) string {
		return `{"spec":{"containers":[{"name":"main","securityContext":` + sc + `}]}}`
	}
	tests := []struct {
		name        string
		built       *corev1.SecurityContext
		role, group string
		want        []string
	}{
		{name: "privileged alone", group: main(`{"privileged":true}`)},
		{name: "CAP_SYS_ADMIN alone", group: main(`{"capabilities":{"add":["CAP_SYS_ADMIN"]}}`)},
		{name: "privileged with escalation allowed", group: main(`{"privileged":true,"allowPrivilegeEscalation":true}`)},
		{
			name:  "privileged with escalation refused in one layer",
			group: main(`{"privileged":true,"allowPrivilegeEscalation":false}`),
			want: []string{group + `.spec.containers[name=main].securityContext: privileged: true with allowPrivilegeEscalation false, ` +
				`which the API server refuses (such a container can always escalate); leave allowPrivilegeEscalation out (the restricted defaults then set none) or set it to true`},
		},
		{
			name:  "escalation refused by the role, privileges asked by the group",
			role:  main(`{"allowPrivilegeEscalation":false}`),
			group: main(`{"capabilities":{"add":["CAP_SYS_ADMIN"]}}`),
			want: []string{group + `.spec.containers[name=main].securityContext: capability CAP_SYS_ADMIN added with allowPrivilegeEscalation false, ` +
				`which the API server refuses (such a container can always escalate); leave allowPrivilegeEscalation out (the restricted defaults then set none) or set it to true`},
		},
		{
			name:  "an init container the override adds",
			group: `{"spec":{"initContainers":[{"name":"tune","image":"busybox","securityContext":{"privileged":true,"allowPrivilegeEscalation":false}}]}}`,
			want: []string{group + `.spec.initContainers[name=tune].securityContext: privileged: true with allowPrivilegeEscalation false, ` +
				`which the API server refuses (such a container can always escalate); leave allowPrivilegeEscalation out (the restricted defaults then set none) or set it to true`},
		},
		{
			name:  "escalation refused by the product, privileges asked by the role",
			built: &corev1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false)},
			role:  main(`{"privileged":true}`),
			want: []string{role + `.spec.containers[name=main].securityContext: privileged: true with allowPrivilegeEscalation false, ` +
				`which the API server refuses (such a container can always escalate); the product's container sets allowPrivilegeEscalation to false: state allowPrivilegeEscalation: true beside it`},
		},
		{
			name:  "escalation refused by the product, allowed by the group",
			built: &corev1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false)},
			group: main(`{"privileged":true,"allowPrivilegeEscalation":true}`),
		},
		{
			name:  "the product's own contradiction is not the override's",
			built: &corev1.SecurityContext{Privileged: ptr.To(true), AllowPrivilegeEscalation: ptr.To(false)},
			group: `{"metadata":{"labels":{"a":"b"}}}`,
		},
	}
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
