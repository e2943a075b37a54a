package reconciler

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// Permissions returns what the reconciler needs from RBAC, derived from its
// configuration alone:
//
//   - the cluster resource (Config.For): read and watched, read afresh
//     after a conflicting status write, its status written; its finalizers
//     subresource, which an API server enforcing owner-reference
//     permissions asks for before an object may block the resource's
//     deletion (every object the reconciler applies is owned by the
//     resource);
//   - every kind the object engine applies (the fixed slots, the
//     ServiceAccount, the RBAC kinds with WorkloadRBAC, ExtraKinds):
//     watched (and listed, the fallback of informers that stream their
//     list), read afresh to confirm a drift or before a delete, created,
//     updated; deleted too, but for the ServiceAccount, whose name never
//     changes; the ConfigMap and the StatefulSet of a role group are also
//     patched (the mark of a retirement's grace period) when
//     Config.Orphan.GracePeriod is set;
//   - pods, cached (listed and watched) for the health check, and the
//     core events of a role group's StatefulSet, listed by it when pods
//     the controller should have created are missing (the admission's
//     refusal, PodsRefused); volume claims, cached as metadata and
//     deleted by the orphan cleaner (for resources that opt into the
//     deletion of a retired group's claims);
//   - ConfigMaps and Secrets, watched for the declared dependencies (their
//     names and versions only);
//   - events, recorded (and patched when one repeats) through the events
//     API;
//   - with Config.Sharding, the cluster resource patched too: the sharding
//     member writes the owner and drain labels on it. The member's own
//     Leases are granted apart (rbac.ShardRules, ManifestOptions.Sharding).
//
// scheme must know Config.For; resolver maps kinds to resources. With
// WorkloadRBAC, the operator must also hold every rule it grants (the API
// server refuses a Role with more rights than its writer), which no
// configuration states: add them to the result.
func (r *Reconciler[CR]) Permissions(scheme *runtime.Scheme, resolver rbac.Resolver) (rbac.Permissions, error) {
	var s rbac.Set
	gvk, err := apiutil.GVKForObject(r.cfg.For, scheme)
	if err != nil {
		return rbac.Permissions{}, fmt.Errorf("reconciler.Config.For: the scheme does not know %T: %w", r.cfg.For, err)
	}
	res, namespaced, err := resolver.Resource(gvk)
	if err != nil {
		return rbac.Permissions{}, err
	}
	s.Add(namespaced, gvk.Group, []string{res}, rbac.Read...)
	if r.cfg.Sharding != nil {
		s.Add(namespaced, gvk.Group, []string{res}, rbac.Patch)
	}
	s.Add(namespaced, gvk.Group, []string{res + "/status", res + "/finalizers"}, rbac.Update)
	applied := []string{rbac.Get, rbac.List, rbac.Watch, rbac.Create, rbac.Update}
	for _, k := range r.managedKinds() {
		verbs := applied
		if k.GroupKind() != (schema.GroupKind{Kind: "ServiceAccount"}) {
			verbs = append(slices.Clone(applied), rbac.Delete)
		}
		if r.cfg.Orphan.GracePeriod > 0 && (k.GroupKind() == schema.GroupKind{Kind: "ConfigMap"} || k.GroupKind() == schema.GroupKind{Group: "apps", Kind: "StatefulSet"}) {
			verbs = append(slices.Clone(verbs), rbac.Patch)
		}
		if err := s.AddKinds(resolver, []schema.GroupVersionKind{k}, verbs...); err != nil {
			return rbac.Permissions{}, err
		}
	}
	s.Add(true, "", []string{"pods"}, rbac.List, rbac.Watch)
	s.Add(true, "", []string{"events"}, rbac.List)
	s.Add(true, "", []string{"persistentvolumeclaims"}, rbac.List, rbac.Watch, rbac.Delete)
	s.Add(true, "", []string{"configmaps", "secrets"}, rbac.List, rbac.Watch)
	s.Add(true, "events.k8s.io", []string{"events"}, rbac.Create, rbac.Patch)
	return s.Permissions(), nil
}
