package component

import (
	"slices"
	"strconv"
	"strings"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
)

// engine returns the object engine of one pass: the reconciler's
// options over the target's client, with the component's own policies,
// reapply interval and managed types. The object engine keeps no
// state, so one per pass costs nothing but the options' validation.
func (r *Reconciler[T]) engine(t *target, comp T) (*apply.Engine, error) {
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
		// Listing the owner's labelled objects is a cache read here.
		opts.Kinds = r.opts.Kinds
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
	return apply.New(r.name, t.client, opts)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
