package builders

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// containerRef names a container of a pod template by its list and name.
type containerRef struct {
	list, name string
}

// field is the container's securityContext within a layer's podOverrides.
func (r containerRef) field() string {
	return fmt.Sprintf("podOverrides.spec.%s[name=%s].securityContext", r.list, r.name)
}

// containersOf returns the init containers and containers of t with their
// references, init containers first, each list in template order.
func containersOf(t *corev1.PodTemplateSpec) ([]containerRef, []*corev1.Container) {
	var refs []containerRef
	var cs []*corev1.Container
	for _, l := range []struct {
		name string
		cs   []corev1.Container
	}{{"initContainers", t.Spec.InitContainers}, {"containers", t.Spec.Containers}} {
		for i := range l.cs {
			refs = append(refs, containerRef{list: l.name, name: l.cs[i].Name})
			cs = append(cs, &l.cs[i])
		}
	}
	return refs, cs
}

// refusesEscalation reports a container that asks for privileges
// (EscalatesPrivileges) and states allowPrivilegeEscalation false: the API
// server refuses the pair.
func refusesEscalation(c *corev1.Container) bool {
	sc := c.SecurityContext
	return EscalatesPrivileges(sc) && sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation
}

// escalationConflicts reports the containers of merged that the layers
// leave asking for privileges while stating allowPrivilegeEscalation
// false, a pod the API server refuses with a message about the generated
// StatefulSet, not about what the user wrote. The restricted defaults
// never add that false beside privileges (HardenContainer), so the pair
// is stated: by a layer, or by the product with a layer asking for the
// privileges. A container the built template already had so is not the
// layers' doing and is left alone. Each is blamed on the highest layer
// stating the container's privileges or its allowPrivilegeEscalation.
func escalationConflicts(scope Scope, base, merged *corev1.PodTemplateSpec, applied []decodedOverride) []error {
	if len(applied) == 0 {
		return nil
	}
	baseRefs, baseCs := containersOf(base)
	already := map[containerRef]bool{}
	builtFalse := map[containerRef]bool{}
	for i, ref := range baseRefs {
		already[ref] = refusesEscalation(baseCs[i])
		if sc := baseCs[i].SecurityContext; sc != nil && sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
			builtFalse[ref] = true
		}
	}
	var errs []error
	refs, cs := containersOf(merged)
	for i, ref := range refs {
		if !refusesEscalation(cs[i]) || already[ref] {
			continue
		}
		fix := "leave allowPrivilegeEscalation out (the restricted defaults then set none) or set it to true"
		if builtFalse[ref] {
			fix = "the product's container sets allowPrivilegeEscalation to false: state allowPrivilegeEscalation: true beside it"
		}
		errs = append(errs, layerError(scope, blameEscalation(ref, applied), ref.field(),
			"%s with allowPrivilegeEscalation false, which the API server refuses (such a container can always escalate); %s",
			privilegeAsked(cs[i].SecurityContext), fix))
	}
	return errs
}

// privilegeAsked says which privilege sc asks for.
func privilegeAsked(sc *corev1.SecurityContext) string {
	if sc.Privileged != nil && *sc.Privileged {
		return "privileged: true"
	}
	return "capability " + string(sysAdmin) + " added"
}

// blameEscalation returns the highest layer that states ref's privileges
// or allowPrivilegeEscalation, else the highest layer applied.
func blameEscalation(ref containerRef, applied []decodedOverride) commonsv1alpha1.Layer {
	for _, a := range slices.Backward(applied) {
		refs, cs := containersOf(a.patch)
		for i, r := range refs {
			if r != ref || cs[i].SecurityContext == nil {
				continue
			}
			sc := cs[i].SecurityContext
			if sc.Privileged != nil || sc.Capabilities != nil || sc.AllowPrivilegeEscalation != nil {
				return a.layer
			}
		}
	}
	return applied[len(applied)-1].layer
}
