package reconciler

import (
	"cmp"
	"context"
	"slices"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/ignored"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// A scope is one call of the object engine with its own inventory: the
// cluster-wide objects, one role's objects, one role group's. Each scope
// has its own owner id, so a scope's call never takes another scope's
// objects for strays of its own.

func clusterOwnerID(cr Cluster) string { return string(cr.GetUID()) }

func roleOwnerID(cr Cluster, role string) string { return string(cr.GetUID()) + "/" + role }

func groupOwnerID(cr Cluster, ref commonsv1alpha1.RoleGroupRef) string {
	return string(cr.GetUID()) + "/" + ref.Role + "/" + ref.Group
}

// applyScope applies objs, each controller-owned by cr, as the scope
// ownerID with the inventory inv. Objects that leave the set are deleted,
// unless release says to let them go. Preserved fields the spec wants
// changed become ImmutableFieldIgnored warnings and keep the pass from
// being complete (ReconcileComplete False with reason
// ImmutableFieldIgnored, naming each value, what it is, what the spec asks
// and what the user can do), on every pass the difference lasts, until
// the spec is reverted or the object recreated. It returns whether the
// scope is done (applied, ready, nothing obsolete left).
func (r *Reconciler[CR]) applyScope(ctx context.Context, p *pass, cr CR, ownerID string, inv *inventory.Inventory,
	objs []client.Object, release func(inventory.Ref) bool) (bool, error) {
	shardgate.Follow(shardgate.OwnerLabels(cr), objs)
	if err := shardgate.TagPods(shardgate.BucketLabels(cr), objs); err != nil {
		return false, err
	}
	for _, o := range objs {
		if err := controllerutil.SetControllerReference(cr, o, r.scheme); err != nil {
			return false, err
		}
	}
	if p.planning != nil {
		return r.planScope(ctx, p, cr, ownerID, inv, objs, release)
	}
	res, err := r.engine.Apply(ctx, inv, objs, apply.PassOptions{
		Owner:   apply.Owner{ID: ownerID, DefaultNamespace: cr.GetNamespace()},
		Release: release,
	})
	for _, c := range res.Changes {
		if msg := ignored.Message(c, "the spec"); msg != "" {
			p.ignore(msg)
		}
	}
	if !res.Done {
		p.unsettle()
	}
	return res.Done, err
}

// groupStatus returns the ledger entry of ref, adding it (sorted) when
// missing. The pointer is valid until the ledger changes length.
func groupStatus(st *commonsv1alpha1.ClusterStatus, ref commonsv1alpha1.RoleGroupRef) *commonsv1alpha1.RoleGroupStatus {
	i, found := slices.BinarySearchFunc(st.RoleGroups, ref, compareGroupStatus)
	if !found {
		st.RoleGroups = slices.Insert(st.RoleGroups, i, commonsv1alpha1.RoleGroupStatus{RoleGroupRef: ref})
	}
	return &st.RoleGroups[i]
}

// findGroupStatus returns the ledger entry of ref, or nil.
func findGroupStatus(st *commonsv1alpha1.ClusterStatus, ref commonsv1alpha1.RoleGroupRef) *commonsv1alpha1.RoleGroupStatus {
	i, found := slices.BinarySearchFunc(st.RoleGroups, ref, compareGroupStatus)
	if !found {
		return nil
	}
	return &st.RoleGroups[i]
}

func compareGroupStatus(e commonsv1alpha1.RoleGroupStatus, r commonsv1alpha1.RoleGroupRef) int {
	return cmp.Or(cmp.Compare(e.Role, r.Role), cmp.Compare(e.Group, r.Group))
}

// roleStatus returns the role-level entry of role, adding it (sorted) when
// missing.
func roleStatus(st *commonsv1alpha1.ClusterStatus, role string) *commonsv1alpha1.RoleStatus {
	i, found := slices.BinarySearchFunc(st.Roles, role, func(e commonsv1alpha1.RoleStatus, r string) int { return cmp.Compare(e.Role, r) })
	if !found {
		st.Roles = slices.Insert(st.Roles, i, commonsv1alpha1.RoleStatus{Role: role})
	}
	return &st.Roles[i]
}
