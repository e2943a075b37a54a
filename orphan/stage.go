package orphan

import (
	"context"
	"time"

	"github.com/go-logr/logr"
)

// Stage is where a removed role group's teardown stands. The values read
// as condition or event reasons.
type Stage string

// The stages, in teardown order.
const (
	// StageUnknown: the pass could not read the group; its error says why.
	StageUnknown Stage = "Unknown"
	// StageGrace: the group is marked for deletion and waits out
	// Options.GracePeriod; declaring it again still costs nothing.
	StageGrace Stage = "Grace"
	// StageScalingDown: the pass set the StatefulSet's replicas to zero.
	StageScalingDown Stage = "ScalingDown"
	// StageDraining: the StatefulSet is at zero replicas and its pods are
	// going, until Options.DrainTimeout at the latest.
	StageDraining Stage = "Draining"
	// StageDeletingClaims: the group's volume claims are being deleted; only
	// when the cluster resource opts in.
	StageDeletingClaims Stage = "DeletingClaims"
	// StageDeletingObjects: the group's objects are being deleted one at a
	// time, each confirmed gone before the next.
	StageDeletingObjects Stage = "DeletingObjects"
	// StageReclaimed: an uncached read found nothing of the group left.
	StageReclaimed Stage = "Reclaimed"
)

// Stages returns every stage, StageUnknown first, then in teardown order.
func Stages() []Stage {
	return []Stage{StageUnknown, StageGrace, StageScalingDown, StageDraining,
		StageDeletingClaims, StageDeletingObjects, StageReclaimed}
}

// step is one small function of the teardown. It looks at g and either
// acts or waits, returning false, or finds nothing to do, returning true
// so the next step runs in the same pass. A step acts at most once: one
// change per group per pass.
type step struct {
	stage Stage
	run   func(ctx context.Context, g *group) (done bool, err error)
}

// steps lists the teardown in order. The PodDisruptionBudget goes first,
// once the pods are gone; the claims before the StatefulSet, whose
// selector finds them; the Services last.
func (c *Cleaner) steps() []step {
	return []step{
		{StageGrace, c.waitGrace},
		{StageScalingDown, c.scaleDown},
		{StageDraining, c.waitDrain},
		{StageDeletingObjects, c.deletePDB},
		{StageDeletingClaims, c.deleteClaims},
		{StageDeletingObjects, c.deleteStatefulSet},
		{StageDeletingObjects, c.deleteExtras},
		{StageDeletingObjects, c.deleteConfigMap},
		{StageDeletingObjects, c.deleteServices},
	}
}

// advance reads one removed role group and runs its steps until one acts,
// waits or fails. The steps read through the client; an object that is
// absent, or not the cluster's, counts as gone and is never touched. When
// every step finds nothing to do, the uncached reader confirms that
// nothing is left before the group is reclaimed; should it find
// something, the steps run again reading through it (confirm.go).
func (c *Cleaner) advance(ctx context.Context, g *group) outcome {
	log := logr.FromContextOrDiscard(ctx).WithValues("role", g.ref.Role, "group", g.ref.Group)
	ctx = logr.NewContext(ctx, log)
	if stage, err := c.runSteps(ctx, g); err != nil || stage != StageReclaimed {
		return c.finish(g, stage, err)
	}
	left, err := c.leftUncached(ctx, g)
	if err != nil {
		return c.finish(g, StageDeletingObjects, err)
	}
	if left {
		log.V(1).Info("the cache misses objects of the group; reading them uncached")
		g.read = c.reader
		if stage, err := c.runSteps(ctx, g); err != nil || stage != StageReclaimed {
			return c.finish(g, stage, err)
		}
	}
	log.Info("role group reclaimed")
	return c.finish(g, StageReclaimed, nil)
}

// runSteps reads the group and runs its steps until one acts, waits or
// fails, and returns that step's stage; StageReclaimed when none did.
func (c *Cleaner) runSteps(ctx context.Context, g *group) (Stage, error) {
	if err := c.observe(ctx, g); err != nil {
		return StageUnknown, err
	}
	for _, s := range c.steps() {
		done, err := s.run(ctx, g)
		if err != nil || !done {
			return s.stage, err
		}
	}
	return StageReclaimed, nil
}

// outcome is one group's pass: its report and how soon it needs the next.
type outcome struct {
	report  GroupReport
	requeue time.Duration
}

// finish closes the group's pass at stage: anything short of reclaimed
// asks for the next pass, by default after the poll interval.
func (c *Cleaner) finish(g *group, stage Stage, err error) outcome {
	g.report.Stage = stage
	g.report.Err = err
	if stage == StageReclaimed {
		return outcome{report: g.report}
	}
	if g.requeue <= 0 {
		g.requeue = c.opts.DrainPollInterval
	}
	return outcome{report: g.report, requeue: g.requeue}
}
