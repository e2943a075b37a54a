package component

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// Permissions returns what the reconciler needs from RBAC, derived from its
// options and its component type alone:
//
//   - the component type: read and watched, patched (the finalizer, and
//     with Options.Sharding the member's owner and drain labels), its
//     status written, and its finalizers subresource (the render record is
//     owned by the component, and an API server enforcing owner-reference
//     permissions asks for it);
//   - every kind of Options.Kinds with the verbs the object engine uses:
//     watched (and listed, the fallback of informers that stream their
//     list), read afresh to confirm a drift, created, updated, deleted;
//     patched too when a policy asks for it (an update policy of
//     server-side apply, a delete policy that orphans: the object loses
//     the owner's marks), in Options or, when the component type has a
//     PolicyConfiguration, per component; and namespaces' create unless
//     Options.MissingNamespacesPolicy is do-not-create and components
//     cannot choose another policy;
//   - ConfigMaps and Secrets, read and watched (references), and Secrets
//     created and updated (the render records);
//   - events, recorded through the events API;
//   - impersonation of service accounts with Options.DefaultServiceAccount,
//     and of users, groups and service accounts when the component type
//     lets a component name whom to impersonate (ImpersonationConfiguration,
//     ServiceAccountConfiguration).
//
// Objects of kinds outside Options.Kinds need rights of their own; with
// Options.StrictKinds the reconciler refuses to apply them, so the result
// is complete. A generator whose objects state such policies in their own
// annotations (update-policy ssa-merge, say) needs patch on their kinds,
// which no option says: add it. A component applied to another cluster (ClientConfiguration)
// uses that cluster's credentials, which these rules do not cover. A
// sharding member's own Leases are granted apart (rbac.ShardRules,
// ManifestOptions.Sharding).
func (r *Reconciler[T]) Permissions(scheme *runtime.Scheme, resolver rbac.Resolver) (rbac.Permissions, error) {
	var s rbac.Set
	obj, err := newObject[T]()
	if err != nil {
		return rbac.Permissions{}, err
	}
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		return rbac.Permissions{}, fmt.Errorf("component reconciler: the scheme does not know %T: %w", obj, err)
	}
	res, namespaced, err := resolver.Resource(gvk)
	if err != nil {
		return rbac.Permissions{}, err
	}
	s.Add(namespaced, gvk.Group, []string{res}, rbac.Get, rbac.List, rbac.Watch, rbac.Patch)
	s.Add(namespaced, gvk.Group, []string{res + "/status", res + "/finalizers"}, rbac.Update)
	_, perComponent := configuration[PolicyConfiguration](obj)
	verbs := []string{rbac.Get, rbac.List, rbac.Watch, rbac.Create, rbac.Update, rbac.Delete}
	if perComponent || r.patches() {
		verbs = append(verbs, rbac.Patch)
	}
	if err := s.AddKinds(resolver, r.opts.Kinds, verbs...); err != nil {
		return rbac.Permissions{}, err
	}
	if perComponent || r.opts.MissingNamespacesPolicy != apply.MissingNamespacesPolicyDoNotCreate {
		s.Add(false, "", []string{"namespaces"}, rbac.Create)
	}
	s.Add(true, "", []string{"configmaps", "secrets"}, rbac.Read...)
	s.Add(true, "", []string{"secrets"}, rbac.Create, rbac.Update)
	s.Add(true, "events.k8s.io", []string{"events"}, rbac.Create, rbac.Patch)
	if r.opts.DefaultServiceAccount != "" {
		s.Add(true, "", []string{"serviceaccounts"}, rbac.Impersonate)
	}
	_, sa := configuration[ServiceAccountConfiguration](obj)
	if _, imp := configuration[ImpersonationConfiguration](obj); imp {
		s.Add(false, "", []string{"users", "groups"}, rbac.Impersonate)
		sa = true
	}
	if sa {
		s.Add(true, "", []string{"serviceaccounts"}, rbac.Impersonate)
	}
	return s.Permissions(), nil
}

// checkKinds refuses, with Options.StrictKinds, objects of kinds outside
// Options.Kinds, naming each.
func (r *Reconciler[T]) checkKinds(objects []client.Object) error {
	if !r.opts.StrictKinds {
		return nil
	}
	allowed := make(map[schema.GroupKind]bool, len(r.opts.Kinds))
	for _, k := range r.opts.Kinds {
		allowed[k.GroupKind()] = true
	}
	var errs []error
	for _, o := range objects {
		gvk := o.GetObjectKind().GroupVersionKind()
		if gvk.Empty() {
			gvk, _ = apiutil.GVKForObject(o, r.scheme)
		}
		if !allowed[gvk.GroupKind()] {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "component.Options.Kinds",
				"the generator renders %s %s, a kind outside Kinds; with StrictKinds the operator applies no other kind (add it to Kinds, and its rights to the operator's role)",
				gvk.GroupKind(), client.ObjectKeyFromObject(o)))
		}
	}
	return errors.Join(errs...)
}

// patches reports whether the options' policies make the object engine
// patch: server-side apply, or a delete policy that lets objects go.
func (r *Reconciler[T]) patches() bool {
	switch r.opts.UpdatePolicy {
	case apply.UpdatePolicySSAMerge, apply.UpdatePolicySSAOverride:
		return true
	}
	switch r.opts.DeletePolicy {
	case apply.DeletePolicyOrphan, apply.DeletePolicyOrphanOnApply, apply.DeletePolicyOrphanOnDelete:
		return true
	}
	return false
}
