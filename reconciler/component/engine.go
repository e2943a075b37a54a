package component

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
)

// engine returns the object engine of a pass over comp: the reconciler's
// options over the target's client, with the component's own policies,
// reapply interval and managed types. The engines of the manager's own
// cluster are kept, one per set of options, for what an engine
// remembers between passes: the versions of its own writes, which a
// lagging cache is checked against (no write on the strength of a read
// older than the last write), and the inventories its passes left (a
// pass from the same inventory does not search for strays). A plan
// (keep false) gets an engine of its own, which it leaves nothing in.
func (r *Reconciler[T]) engine(t *target, comp T, keep bool) (*apply.Engine, error) {
	opts := apply.Options{
		FieldOwner:              r.opts.FieldOwner,
		Finalizer:               r.opts.Finalizer,
		Reader:                  t.reader,
		Recorder:                t.recorder,
		AdoptionPolicy:          r.opts.AdoptionPolicy,
		UpdatePolicy:            r.opts.UpdatePolicy,
		DeletePolicy:            r.opts.DeletePolicy,
		MissingNamespacesPolicy: r.opts.MissingNamespacesPolicy,
		ReapplyInterval:         r.opts.ReapplyInterval,
		Discovery:               t.discovery,
		Clock:                   r.opts.Clock,
	}
	on, err := r.objectEvents(comp)
	if err != nil {
		return nil, err
	}
	if !on && opts.Recorder != nil {
		opts.Recorder = warningsOnly{next: opts.Recorder}
	}
	if t.cached {
		// Listing the owner's labelled objects is a cache read here,
		// through the owner index where there is one.
		opts.Kinds, opts.IndexedKinds = r.opts.Kinds, r.indexed
	}
	if pc, ok := configuration[PolicyConfiguration](comp); ok {
		for _, p := range []struct {
			field, value string
			set          func(string)
		}{
			{"AdoptionPolicy", pc.GetAdoptionPolicy(), func(v string) { opts.AdoptionPolicy = apply.AdoptionPolicy(v) }},
			{"UpdatePolicy", pc.GetUpdatePolicy(), func(v string) { opts.UpdatePolicy = apply.UpdatePolicy(v) }},
			{"DeletePolicy", pc.GetDeletePolicy(), func(v string) { opts.DeletePolicy = apply.DeletePolicy(v) }},
			{"MissingNamespacesPolicy", pc.GetMissingNamespacesPolicy(), func(v string) { opts.MissingNamespacesPolicy = apply.MissingNamespacesPolicy(v) }},
		} {
			if p.value == "" {
				continue
			}
			if !slices.Contains(policyValues[p.field], p.value) {
				return nil, failure.Invalid(failure.AuthorUser, "spec."+lowerFirst(p.field),
					"unknown policy %q; one of %s", p.value, strings.Join(policyValues[p.field], ", "))
			}
			p.set(p.value)
		}
	}
	if rc, ok := configuration[ReapplyConfiguration](comp); ok && rc.GetReapplyInterval() > 0 {
		opts.ReapplyInterval = rc.GetReapplyInterval()
	}
	if tc, ok := configuration[TypeConfiguration](comp); ok {
		for i, mt := range tc.GetAdditionalManagedTypes() {
			if mt.Kind == "" {
				return nil, failure.Invalid(failure.AuthorUser, "spec.additionalManagedTypes["+strconv.Itoa(i)+"].kind", "must not be empty")
			}
			opts.AdditionalManagedTypes = append(opts.AdditionalManagedTypes, apply.TypeInfo{Group: mt.Group, Kind: mt.Kind})
		}
	}
	if !keep || !t.cached {
		return apply.New(r.name, t.client, opts)
	}
	key := engineKey{
		adoption: opts.AdoptionPolicy, update: opts.UpdatePolicy, delete: opts.DeletePolicy,
		missingNamespaces: opts.MissingNamespacesPolicy, reapply: opts.ReapplyInterval, objectEvents: on,
	}
	for _, mt := range opts.AdditionalManagedTypes {
		key.types += mt.Group + "/" + mt.Kind + ","
	}
	r.enginesMu.Lock()
	defer r.enginesMu.Unlock()
	if e, ok := r.engines[key]; ok {
		return e, nil
	}
	e, err := apply.New(r.name, t.client, opts)
	if err != nil {
		return nil, err
	}
	if r.engines == nil {
		r.engines = map[engineKey]*apply.Engine{}
	}
	r.engines[key] = e
	return e, nil
}

// engineKey tells apart the options of the local engines: what a
// component may set for itself.
type engineKey struct {
	adoption          apply.AdoptionPolicy
	update            apply.UpdatePolicy
	delete            apply.DeletePolicy
	missingNamespaces apply.MissingNamespacesPolicy
	reapply           time.Duration
	objectEvents      bool
	// types are the additional managed types, in the component's order.
	types string
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
