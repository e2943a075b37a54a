package builders

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// DefaultUserID is the user, group and fsGroup ID pods run as unless the
// pod's security context states others. It is not root, as the restricted
// Pod Security profile requires.
const DefaultUserID int64 = 1000

// RestrictedPodSecurityContext returns the pod security context the
// restricted Pod Security profile accepts: non-root user DefaultUserID,
// RuntimeDefault seccomp, and volume ownership changed only when it does
// not already match (OnRootMismatch), which keeps restarts of pods with
// large data volumes fast.
func RestrictedPodSecurityContext() *corev1.PodSecurityContext {
	return &corev1.PodSecurityContext{
		RunAsNonRoot:        ptr.To(true),
		RunAsUser:           ptr.To(DefaultUserID),
		RunAsGroup:          ptr.To(DefaultUserID),
		FSGroup:             ptr.To(DefaultUserID),
		FSGroupChangePolicy: ptr.To(corev1.FSGroupChangeOnRootMismatch),
		SeccompProfile:      &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

// RestrictedContainerSecurityContext returns the container security context
// the restricted Pod Security profile accepts: non-root, no privilege
// escalation, all capabilities dropped, RuntimeDefault seccomp.
func RestrictedContainerSecurityContext() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		RunAsNonRoot:             ptr.To(true),
		AllowPrivilegeEscalation: ptr.To(false),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		SeccompProfile:           &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

// ApplyRestrictedDefaults fills the unset security fields of spec, its
// containers and its init containers with the restricted values. A field
// already set is kept, so a product that needs a different user states it
// and keeps it.
func ApplyRestrictedDefaults(spec *corev1.PodSpec) {
	if spec.SecurityContext == nil {
		spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	fillPodSecurityContext(spec.SecurityContext, RestrictedPodSecurityContext())
	for i := range spec.InitContainers {
		fillContainerSecurityContext(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		fillContainerSecurityContext(&spec.Containers[i])
	}
}

func fillPodSecurityContext(sc, def *corev1.PodSecurityContext) {
	if sc.RunAsNonRoot == nil {
		sc.RunAsNonRoot = def.RunAsNonRoot
	}
	if sc.RunAsUser == nil {
		sc.RunAsUser = def.RunAsUser
	}
	if sc.RunAsGroup == nil {
		sc.RunAsGroup = def.RunAsGroup
	}
	if sc.FSGroup == nil {
		sc.FSGroup = def.FSGroup
	}
	if sc.FSGroupChangePolicy == nil {
		sc.FSGroupChangePolicy = def.FSGroupChangePolicy
	}
	if sc.SeccompProfile == nil {
		sc.SeccompProfile = def.SeccompProfile
	}
}

func fillContainerSecurityContext(c *corev1.Container) {
	def := RestrictedContainerSecurityContext()
	if c.SecurityContext == nil {
		c.SecurityContext = def
		return
	}
	sc := c.SecurityContext
	if sc.RunAsNonRoot == nil {
		sc.RunAsNonRoot = def.RunAsNonRoot
	}
	if sc.AllowPrivilegeEscalation == nil {
		sc.AllowPrivilegeEscalation = def.AllowPrivilegeEscalation
	}
	if sc.Capabilities == nil {
		sc.Capabilities = def.Capabilities
	}
	if sc.SeccompProfile == nil {
		sc.SeccompProfile = def.SeccompProfile
	}
}
