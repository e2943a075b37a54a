package builders

import (
	"slices"

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

// Hardening says what HardenContainer adds beyond the restricted profile.
// The zero value adds nothing.
type Hardening struct {
	// ReadOnlyRootFilesystem makes the container's root file system
	// read-only, as auxiliary containers (sidecars) should run: what they
	// write goes to a volume.
	ReadOnlyRootFilesystem bool
}

// HardenContainer is the one container hardening rule of opkit: it fills
// every unset field of c's security context with the restricted Pod
// Security values (RestrictedContainerSecurityContext) and those h asks
// for. A field already set is kept, so a product or a user that needs a
// different value states it and keeps it. A default that would contradict
// what is stated is left out: a container that asks for privileges
// (EscalatesPrivileges) gets no allowPrivilegeEscalation, since the API
// server refuses false beside them.
func HardenContainer(c *corev1.Container, h Hardening) {
	def := RestrictedContainerSecurityContext()
	if h.ReadOnlyRootFilesystem {
		def.ReadOnlyRootFilesystem = ptr.To(true)
	}
	if c.SecurityContext == nil {
		c.SecurityContext = def
		return
	}
	sc := c.SecurityContext
	if sc.RunAsNonRoot == nil {
		sc.RunAsNonRoot = def.RunAsNonRoot
	}
	if sc.AllowPrivilegeEscalation == nil && !EscalatesPrivileges(sc) {
		sc.AllowPrivilegeEscalation = def.AllowPrivilegeEscalation
	}
	if sc.Capabilities == nil {
		sc.Capabilities = def.Capabilities
	}
	if sc.SeccompProfile == nil {
		sc.SeccompProfile = def.SeccompProfile
	}
	if sc.ReadOnlyRootFilesystem == nil {
		sc.ReadOnlyRootFilesystem = def.ReadOnlyRootFilesystem
	}
}

// sysAdmin is the capability the API server refuses beside
// allowPrivilegeEscalation false, spelled as it compares it.
const sysAdmin corev1.Capability = "CAP_SYS_ADMIN"

// EscalatesPrivileges reports whether sc asks for what implies privilege
// escalation: a privileged container, or the CAP_SYS_ADMIN capability
// added. The API server refuses either beside allowPrivilegeEscalation
// false, so HardenContainer leaves that default out for such a container
// and ApplyPodOverrides reports an override that states both.
func EscalatesPrivileges(sc *corev1.SecurityContext) bool {
	if sc == nil {
		return false
	}
	if sc.Privileged != nil && *sc.Privileged {
		return true
	}
	return sc.Capabilities != nil && slices.Contains(sc.Capabilities.Add, sysAdmin)
}

// ApplyRestrictedDefaults fills the unset security fields of spec, its
// containers and its init containers with the restricted values
// (HardenContainer with the zero Hardening for each container). A field
// already set is kept, so a product that needs a different user states it
// and keeps it. The StatefulSet builder calls it last, after sidecars and
// pod overrides, so containers those add are covered too.
func ApplyRestrictedDefaults(spec *corev1.PodSpec) {
	if spec.SecurityContext == nil {
		spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	fillPodSecurityContext(spec.SecurityContext, RestrictedPodSecurityContext())
	for i := range spec.InitContainers {
		HardenContainer(&spec.InitContainers[i], Hardening{})
	}
	for i := range spec.Containers {
		HardenContainer(&spec.Containers[i], Hardening{})
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
