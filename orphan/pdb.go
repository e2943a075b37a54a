package orphan

import (
	"context"
	"fmt"
	"time"

	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// reclaimRolePDBs deletes the role-level PodDisruptionBudgets of roles the
// spec no longer declares. A removed role leaves no role group to find its
// PDB by, so it is found by its slot label, whose value is the role name,
// and only when the cluster resource controls it. It returns a requeue
// delay when a deletion is in flight.
func (c *Cleaner) reclaimRolePDBs(ctx context.Context, sc scope, in Input) (time.Duration, error) {
	if sc.uid == "" {
		return 0, nil
	}
	roles := map[string]bool{}
	for _, r := range in.DeclaredRoles {
		roles[r] = true
	}
	for _, ref := range in.Declared {
		roles[ref.Role] = true
	}
	var pdbs policyv1.PodDisruptionBudgetList
	err := c.client.List(ctx, &pdbs, client.InNamespace(sc.namespace),
		client.MatchingLabels{v1alpha1.LabelInstance: sc.cluster},
		client.HasLabels{v1alpha1.LabelRolePodDisruptionBudget})
	if err != nil {
		return 0, fmt.Errorf("listing role PodDisruptionBudgets: %w", err)
	}
	var requeue time.Duration
	for i := range pdbs.Items {
		pdb := &pdbs.Items[i]
		if roles[pdb.Labels[v1alpha1.LabelRolePodDisruptionBudget]] || !sc.controlledBy(pdb) {
			continue
		}
		requeue = c.opts.DrainPollInterval
		if err := c.deleteOnce(ctx, pdb); err != nil {
			return requeue, fmt.Errorf("role %s: %w", pdb.Labels[v1alpha1.LabelRolePodDisruptionBudget], err)
		}
	}
	return requeue, nil
}
