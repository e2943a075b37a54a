package orphan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// Cleaner retires removed role groups. It holds no per-cluster state: one
// Cleaner serves every cluster an operator reconciles, concurrently, of
// any kind its client's scheme knows.
type Cleaner struct {
	client  client.Client
	reader  client.Reader
	opts    Options
	metrics *metrics
}

// NewCleaner returns a Cleaner that reads and writes through c (typically a
// manager's cached client) and confirms through uncached (the manager's API
// reader) that nothing of a group is left before it reports the group
// reclaimed, because a cache may miss an object that exists; see
// confirm.go. A missing client or an invalid option is
// an ErrInvalid error blaming the operator and naming the option.
func NewCleaner(c client.Client, uncached client.Reader, opts Options) (*Cleaner, error) {
	var errs []error
	if c == nil {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "orphan.NewCleaner", "needs a client"))
	}
	if uncached == nil {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "orphan.NewCleaner", "needs an uncached reader"))
	}
	if err := errors.Join(append(errs, opts.validate()...)...); err != nil {
		return nil, err
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

// Clean runs one pass: every removed role group advances by at most one
// step, and the Result says where each one stands and what the pass did.
//
// Errors are confined to their group (GroupReport.Err) and joined, sorted,
// so the message is stable from pass to pass; they keep their class
// (package failure). A 429 stops the pass at once: the error is then
// failure.ErrRateLimited, failure.Delay gives the server's Retry-After, and
// the Result still holds what the pass did before it stopped. An invalid
// Input is an ErrInvalid error blaming the operator; a bad ledger or
// declared entry fails only itself.
func (c *Cleaner) Clean(ctx context.Context, in Input) (Result, error) {
	sc, err := c.scope(in.Owner)
	if err != nil {
		return Result{}, err
	}
	declared, ledger, errs := checkRefs(in)
	inLedger := refSet(ledger)

	// The gauge is written however the pass ends, counting every removed
	// group known at that point that it did not reclaim.
	pending := orphans(ledger, nil, refSet(declared))
	var res Result
	defer func() { c.metrics.setPending(sc, len(pending)-len(res.Reclaimed())) }()

	live, err := c.discover(ctx, sc)
	if err != nil {
		return res, errors.Join(append(errs, fmt.Errorf("discovering the role groups of %s %s/%s: %w", sc.kind, sc.namespace, sc.cluster, err))...)
	}
	pending = orphans(ledger, live, refSet(declared))

	res.Unmarked, err = c.resetMarks(ctx, sc, declared, live, inLedger)
	if errs = append(errs, err); rateLimited(errs) {
		return res, joinSorted(errs)
	}

	for _, out := range c.advanceAll(ctx, sc, pending, inLedger, heldKinds(in.Ledger)) {
		res.Groups = append(res.Groups, out.report)
		res.RequeueAfter = earliest(res.RequeueAfter, out.requeue)
		if err := out.report.Err; err != nil {
			errs = append(errs, fmt.Errorf("role group %s/%s: %w", out.report.RoleGroup.Role, out.report.RoleGroup.Group, err))
		}
	}
	if rateLimited(errs) {
		return res, joinSorted(errs)
	}

	actions, requeue, err := c.reclaimRolePDBs(ctx, sc, in)
	res.RolePDBs = actions
	res.RequeueAfter = earliest(res.RequeueAfter, requeue)
	return res, joinSorted(append(errs, err))
}

// advanceAll advances every group by one step, up to
// Options.MaxConcurrentGroups at a time, and returns the outcomes in the
// order of refs. A 429 in one group starts no further group: pushing more
// requests would deepen the server's backlog. All progress is kept on the
// objects, so the groups not reached lose nothing.
func (c *Cleaner) advanceAll(ctx context.Context, sc scope, refs []v1alpha1.RoleGroupRef, inLedger map[v1alpha1.RoleGroupRef]bool, held map[v1alpha1.RoleGroupRef]map[schema.GroupKind]bool) []outcome {
	out := make([]*outcome, len(refs))
	sem := make(chan struct{}, c.opts.MaxConcurrentGroups)
	var (
		wg      sync.WaitGroup
		limited atomic.Bool
	)
	for i, ref := range refs {
		sem <- struct{}{}
		if limited.Load() {
			<-sem
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			o := c.advance(ctx, c.newGroup(sc, ref, inLedger[ref], held[ref]))
			if errors.Is(o.report.Err, failure.ErrRateLimited) {
				limited.Store(true)
			}
			out[i] = &o
		})
	}
	wg.Wait()
	reached := make([]outcome, 0, len(refs))
	for _, o := range out {
		if o != nil {
			reached = append(reached, *o)
		}
	}
	return reached
}

// Forget deletes the metric series of one cluster resource, and only its
// own: owner gives the kind (through the client's scheme), namespace and
// name. Call it when the cluster resource is gone, with an object of its
// type carrying its namespace and name: a zeroed series would still
// publish it.
func (c *Cleaner) Forget(owner client.Object) error {
	sc, err := c.scope(owner)
	if err != nil {
		return err
	}
	c.metrics.forget(sc)
	return nil
}

// orphans returns the ledger and live groups that are not declared, sorted.
func orphans(ledger []v1alpha1.RoleGroupRef, live map[v1alpha1.RoleGroupRef]liveGroup, declared map[v1alpha1.RoleGroupRef]bool) []v1alpha1.RoleGroupRef {
	set := refSet(ledger)
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

func refSet(refs []v1alpha1.RoleGroupRef) map[v1alpha1.RoleGroupRef]bool {
	set := make(map[v1alpha1.RoleGroupRef]bool, len(refs))
	for _, ref := range refs {
		set[ref] = true
	}
	return set
}

func compareRefs(a, b v1alpha1.RoleGroupRef) int {
	return cmp.Or(cmp.Compare(a.Role, b.Role), cmp.Compare(a.Group, b.Group))
}

func rateLimited(errs []error) bool {
	return errors.Is(errors.Join(errs...), failure.ErrRateLimited)
}

// joinSorted joins errs sorted by message, so a pass's error reads the
// same from pass to pass.
func joinSorted(errs []error) error {
	errs = slices.DeleteFunc(slices.Clone(errs), func(err error) bool { return err == nil })
	slices.SortFunc(errs, func(a, b error) int { return cmp.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
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
