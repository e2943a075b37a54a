package orphan

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/clock"

	"github.com/opkit-dev/opkit/api/failure"
)

// Options configures a Cleaner. The zero value is usable: no grace period,
// a 10-minute drain timeout polled every 5 seconds, 4 groups advanced at
// once, no extra kinds, the default managed-by value, the real clock and
// controller-runtime's metrics registry.
type Options struct {
	// GracePeriod delays the teardown of a removed role group: the group is
	// marked pending deletion and left alone until the period has passed, so
	// an accidental removal can be undone. Zero starts at once; negative is
	// invalid.
	GracePeriod time.Duration

	// DrainTimeout bounds the wait for a scaled-down StatefulSet's pods to be
	// gone. After it the teardown goes on with pods still terminating, so a
	// pod that never stops cannot strand the group. Zero means 10 minutes;
	// negative is invalid.
	DrainTimeout time.Duration

	// DrainPollInterval is how soon a pass asks to run again while a group is
	// draining or being deleted. Zero means 5 seconds; negative is invalid.
	DrainPollInterval time.Duration

	// ExtraKinds are the kinds of a product's extra role-group objects. Such
	// objects are reclaimed after the StatefulSet when they carry the role
	// group's labels and are controller-owned by the cluster resource. Each
	// needs a version and a kind.
	ExtraKinds []schema.GroupVersionKind

	// MaxConcurrentGroups bounds how many removed role groups a pass
	// advances at once. Zero means 4; negative is invalid.
	MaxConcurrentGroups int

	// ManagedBy is the app.kubernetes.io/managed-by value the operator's
	// objects carry. Empty means the api package's DefaultManagedBy.
	ManagedBy string

	// Index names the index Index added to the cache the client reads, for
	// the kinds IndexedKinds lists. Empty means none: each pass then tests
	// the labels of every cached object of those kinds in the cluster's
	// namespace.
	Index string
	// Clock tells the time. Nil means the real clock.
	Clock clock.PassiveClock

	// Registerer receives the cleaner's metrics. Nil means
	// controller-runtime's metrics registry, which a manager serves.
	Registerer prometheus.Registerer
}

// Defaults for the zero values of Options.
const (
	DefaultDrainTimeout        = 10 * time.Minute
	DefaultDrainPollInterval   = 5 * time.Second
	DefaultMaxConcurrentGroups = 4
)

// validate returns an *failure.InvalidError blaming the operator and
// naming the option for every invalid option.
func (o Options) validate() []error {
	var errs []error
	invalid := func(field, format string, args ...any) {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "orphan.Options."+field, format, args...))
	}
	for _, d := range []struct {
		field string
		value time.Duration
	}{{"GracePeriod", o.GracePeriod}, {"DrainTimeout", o.DrainTimeout}, {"DrainPollInterval", o.DrainPollInterval}} {
		if d.value < 0 {
			invalid(d.field, "must not be negative, got %s", d.value)
		}
	}
	if o.MaxConcurrentGroups < 0 {
		invalid("MaxConcurrentGroups", "must not be negative, got %d", o.MaxConcurrentGroups)
	}
	for i, gvk := range o.ExtraKinds {
		if gvk.Version == "" || gvk.Kind == "" {
			invalid(fmt.Sprintf("ExtraKinds[%d]", i), "needs a version and a kind, got %q", gvk.String())
		}
	}
	return errs
}

func (o Options) withDefaults() Options {
	if o.DrainTimeout == 0 {
		o.DrainTimeout = DefaultDrainTimeout
	}
	if o.DrainPollInterval == 0 {
		o.DrainPollInterval = DefaultDrainPollInterval
	}
	if o.MaxConcurrentGroups == 0 {
		o.MaxConcurrentGroups = DefaultMaxConcurrentGroups
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	return o
}
