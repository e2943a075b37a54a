package orphan

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// reclaimRolePDBs deletes the role-level PodDisruptionBudgets of roles the
// spec no longer declares. A removed role leaves no role group to find its
// PDB by, so it is found by its slot label, whose value is the role name,
// and only when the cluster resource controls it. It returns a requeue
// delay while a deletion is in flight.
func (c *Cleaner) reclaimRolePDBs(ctx context.Context, sc scope, in Input) ([]Action, time.Duration, error) {
	if sc.uid == "" {
		return nil, 0, nil
	}
	roles := map[string]bool{}
	for _, r := range in.DeclaredRoles {
		roles[r] = true
	}
	for _, ref := range in.Declared {
		roles[ref.Role] = true
	}
	var pdbs policyv1.PodDisruptionBudgetList
	err := c.client.List(ctx, &pdbs, append(c.inCluster(sc),
		client.MatchingLabels{v1alpha1.LabelInstance: sc.cluster},
		client.HasLabels{v1alpha1.LabelRolePodDisruptionBudget})...)
	if err != nil {
		return nil, 0, fmt.Errorf("listing role PodDisruptionBudgets: %w", apierr.Classify(err))
	}
	var (
		actions []Action
		errs    []error
		requeue time.Duration
	)
	for i := range pdbs.Items {
		pdb := &pdbs.Items[i]
		role := pdb.Labels[v1alpha1.LabelRolePodDisruptionBudget]
		if roles[role] || !sc.controlledBy(pdb) {
			continue
		}
		requeue = c.opts.DrainPollInterval
		issued, err := c.deleteOnce(ctx, pdb)
		if err != nil {
			errs = append(errs, fmt.Errorf("role %s: %w", role, err))
			if errors.Is(err, failure.ErrRateLimited) {
				break
			}
			continue
		}
		if issued {
			a := Action{Type: ActionDeleted, RoleGroup: v1alpha1.RoleGroupRef{Role: role}, Object: c.reference(pdb)}
			actions = append(actions, a)
			logAction(logr.NewContext(ctx, logr.FromContextOrDiscard(ctx).WithValues("role", role)), a)
		}
	}
	return actions, requeue, errors.Join(errs...)
}
