package reconciler

import (
	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/reconciler/internal/share"
)

// shareStatus returns a cache transform that runs next and then shares the
// strings a cluster resource's status repeats (the condition types,
// reasons and messages, the inventories' groups, versions, kinds and
// namespaces) and trims its inventories to their length, and trims pods
// to what the health check reads (slimPod). The managed objects' strings
// are shared by apply.ManagerOptions' own transform.
func shareStatus(next toolscache.TransformFunc) toolscache.TransformFunc {
	return share.After(next, func(in any) {
		switch o := in.(type) {
		case Cluster:
			shareClusterStatus(o.GetClusterStatus())
		case *corev1.Pod:
			slimPod(o)
		}
	})
}

func shareClusterStatus(st *commonsv1alpha1.ClusterStatus) {
	share.Conditions(st.Conditions)
	for _, inv := range inventories(st) {
		share.Inventory(inv)
	}
}

// inventories returns every inventory of st: the cluster's, each role's
// and each role group's, in that order.
func inventories(st *commonsv1alpha1.ClusterStatus) []*inventory.Inventory {
	out := make([]*inventory.Inventory, 0, 1+len(st.Roles)+len(st.RoleGroups))
	out = append(out, &st.Objects)
	for i := range st.Roles {
		out = append(out, &st.Roles[i].Objects)
	}
	for i := range st.RoleGroups {
		out = append(out, &st.RoleGroups[i].Objects)
	}
	return out
}
