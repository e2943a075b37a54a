package reconciler

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// forPredicate admits the updates of a cluster resource that can change a
// pass's outcome (clusterChanged), and with sharding a requested drain,
// which the pass start acknowledges.
func (r *Reconciler[CR]) forPredicate() predicate.Predicate {
	return shardgate.AdmitDrains(r.clusterChanged(), r.cfg.Sharding)
}

// clusterChanged lets through an update of a cluster resource that
// changed its spec (its generation) or metadata
// (apply.GenerationOrMetadataChanged); a status write that lost the inventory (a status wiped by
// hand, a backup restored: the pass rebuilds it at once); and the update
// a pass that found a stale copy waits for. The reconciler's own status
// writes change none of these: each would otherwise bring one more pass
// that finds nothing to do.
func (r *Reconciler[CR]) clusterChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			o, n := e.ObjectOld, e.ObjectNew
			if o == nil || n == nil {
				return true
			}
			return apply.GenerationOrMetadataChanged(o, n) ||
				inventoryLost(o, n) ||
				r.fresh.Awaited(client.ObjectKeyFromObject(n), n.GetUID(), n.GetResourceVersion())
		},
	}
}

// inventoryLost reports a status that recorded applied objects and
// records none any more.
func inventoryLost(o, n client.Object) bool {
	oc, ok1 := o.(Cluster)
	nc, ok2 := n.(Cluster)
	if !ok1 || !ok2 {
		return false
	}
	return recordsObjects(oc) && !recordsObjects(nc)
}

// recordsObjects reports whether the resource's status records any object
// the reconciler applied.
func recordsObjects(c Cluster) bool {
	s := c.GetClusterStatus()
	return len(s.Objects.Items)+len(s.Objects.Packed) > 0 || len(s.Roles) > 0 || len(s.RoleGroups) > 0
}
