package orphan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Cleaner retires removed role groups. It holds no per-cluster state: one
// Cleaner serves every cluster an operator reconciles, concurrently.
type Cleaner struct {
	client  client.Client
	reader  client.Reader
	opts    Options
	metrics *metrics
}

// NewCleaner returns a Cleaner that writes and lists through c (typically a
// manager's cached client) and confirms each step through uncached (the
// manager's API reader), because a cache may still hold an object that is
// gone, or miss one that exists.
func NewCleaner(c client.Client, uncached client.Reader, opts Options) (*Cleaner, error) {
	if c == nil || uncached == nil {
		return nil, errors.New("orphan: NewCleaner needs a client and an uncached reader")
	}
	opts = opts.withDefaults()
	reg := opts.Registerer
	if reg == nil {
		reg = ctrlmetrics.Registry
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	return &Cleaner{client: c, reader: uncached, opts: opts, metrics: m}, nil
}

// Input is what one pass works from.
type Input struct {
	// Owner is the cluster resource. Its namespace and name scope the work.
	// Its UID enables live discovery and the role PodDisruptionBudget
	// reclaim; an empty UID disables both. Its AnnotationDeletePVCs
	// annotation, set to "true", lets the teardown delete volume claims.
	Owner client.Object
	// Declared lists the role groups the spec declares.
	Declared []v1alpha1.RoleGroupRef
	// DeclaredRoles lists the roles the spec declares, including roles
	// without groups. Roles of Declared count as declared too.
	DeclaredRoles []string
	// Ledger is the status ledger of applied role groups.
	Ledger []v1alpha1.RoleGroupRef
}

// Result is what one pass leaves to do.
type Result struct {
	// Pending lists the removed role groups not yet fully reclaimed, sorted.
	Pending []v1alpha1.RoleGroupRef
	// RequeueAfter is the latest time from now at which the next pass
	// should run; zero when nothing is pending.
	RequeueAfter time.Duration
	// Reclaimed lists the groups an uncached read found empty in this pass,
	// sorted: remove them from the ledger (see Prune).
	Reclaimed []v1alpha1.RoleGroupRef
}

// Clean runs one pass: every removed role group advances by at most one
// step. Errors are confined to their group and joined, sorted; a 429 stops
// the pass at once with a *RateLimitError.
func (c *Cleaner) Clean(ctx context.Context, in Input) (Result, error) {
	if in.Owner == nil {
		return Result{}, errors.New("orphan: Input.Owner is required")
	}
	sc := c.scope(in)
	declared := map[v1alpha1.RoleGroupRef]bool{}
	for _, ref := range in.Declared {
		declared[ref] = true
	}

	live, err := c.discover(ctx, sc)
	if err != nil {
		return Result{}, classify(fmt.Errorf("discovering role groups of %s/%s: %w", sc.namespace, sc.cluster, err))
	}
	var errs []error
	if err := c.resetMarks(ctx, live, declared); err != nil {
		if IsRateLimitError(err) {
			return Result{}, err
		}
		errs = append(errs, err)
	}

	var res Result
	refs := orphans(in.Ledger, live, declared)
	for i, out := range c.advanceAll(ctx, sc, refs) {
		ref := refs[i]
		if out.err != nil {
			if err := classify(out.err); IsRateLimitError(err) {
				return Result{}, err
			}
			errs = append(errs, fmt.Errorf("role group %s/%s: %w", ref.Role, ref.Group, out.err))
		}
		if out.step.done {
			res.Reclaimed = append(res.Reclaimed, ref)
			continue
		}
		res.Pending = append(res.Pending, ref)
		res.RequeueAfter = earliest(res.RequeueAfter, out.step.requeue)
	}

	requeue, err := c.reclaimRolePDBs(ctx, sc, in)
	if err != nil {
		if err = classify(err); IsRateLimitError(err) {
			return Result{}, err
		}
		errs = append(errs, err)
	}
	res.RequeueAfter = earliest(res.RequeueAfter, requeue)

	c.metrics.pending.WithLabelValues(sc.namespace, sc.cluster).Set(float64(len(res.Pending)))
	slices.SortFunc(errs, func(a, b error) int { return cmp.Compare(a.Error(), b.Error()) })
	return res, errors.Join(errs...)
}

// outcome is one group's step of a pass.
type outcome struct {
	step step
	err  error
}

// advanceAll advances every group by one step, up to
// Options.MaxConcurrentGroups at a time, and returns the outcomes in the
// order of refs. Groups are independent, and all progress is kept on their
// objects, so a pass cut short by a 429 in one group loses nothing in the
// others.
func (c *Cleaner) advanceAll(ctx context.Context, sc scope, refs []v1alpha1.RoleGroupRef) []outcome {
	out := make([]outcome, len(refs))
	sem := make(chan struct{}, c.opts.MaxConcurrentGroups)
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st, err := c.advance(ctx, sc, ref)
			out[i] = outcome{step: st, err: err}
		}()
	}
	wg.Wait()
	return out
}

// Forget deletes the metric series of a cluster. Call it when the cluster
// resource is gone: a zeroed series would still publish it.
func (c *Cleaner) Forget(namespace, cluster string) {
	c.metrics.pending.DeleteLabelValues(namespace, cluster)
	c.metrics.drainTimeouts.DeleteLabelValues(namespace, cluster)
}

// Prune returns ledger without the reclaimed groups, keeping its order.
func Prune(ledger, reclaimed []v1alpha1.RoleGroupRef) []v1alpha1.RoleGroupRef {
	return slices.DeleteFunc(slices.Clone(ledger), func(r v1alpha1.RoleGroupRef) bool {
		return slices.Contains(reclaimed, r)
	})
}

// scope is the cluster a pass works on.
type scope struct {
	namespace, cluster string
	uid                types.UID
	managedBy          string
	deletePVCs         bool
}

func (c *Cleaner) scope(in Input) scope {
	managedBy := c.opts.ManagedBy
	if managedBy == "" {
		managedBy = v1alpha1.DefaultManagedBy
	}
	return scope{
		namespace:  in.Owner.GetNamespace(),
		cluster:    in.Owner.GetName(),
		uid:        in.Owner.GetUID(),
		managedBy:  managedBy,
		deletePVCs: in.Owner.GetAnnotations()[v1alpha1.AnnotationDeletePVCs] == "true",
	}
}

// orphans returns the ledger and live groups that are not declared, sorted.
func orphans(ledger []v1alpha1.RoleGroupRef, live map[v1alpha1.RoleGroupRef]liveGroup, declared map[v1alpha1.RoleGroupRef]bool) []v1alpha1.RoleGroupRef {
	set := map[v1alpha1.RoleGroupRef]bool{}
	for _, ref := range ledger {
		set[ref] = true
	}
	for ref := range live {
		set[ref] = true
	}
	var out []v1alpha1.RoleGroupRef
	for ref := range set {
		if !declared[ref] {
			out = append(out, ref)
		}
	}
	slices.SortFunc(out, compareRefs)
	return out
}

func compareRefs(a, b v1alpha1.RoleGroupRef) int {
	return cmp.Or(cmp.Compare(a.Role, b.Role), cmp.Compare(a.Group, b.Group))
}

// earliest returns the sooner of two requeue delays, zero meaning none.
func earliest(a, b time.Duration) time.Duration {
	switch {
	case a <= 0:
		return b
	case b <= 0:
		return a
	default:
		return min(a, b)
	}
}
