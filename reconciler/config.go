package reconciler

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
	"github.com/opkit-dev/opkit/sidecar"
)

// Defaults of Config's zero values.
const (
	// DefaultHealthCheckInterval is how soon a settled cluster is looked at
	// again, for what produces no watch event (pods, a health check).
	DefaultHealthCheckInterval = 2 * time.Minute
	// DefaultHealthCheckTimeout bounds the product's health check.
	DefaultHealthCheckTimeout = 10 * time.Second
	// DefaultMaxConcurrentGroups is how many role groups of a role a pass
	// reconciles at once.
	DefaultMaxConcurrentGroups = 4
	// DefaultProgressInterval is how soon a cluster that is not settled yet
	// (a rollout, a wave waiting for readiness) is looked at again, as a
	// safety net beside the watches.
	DefaultProgressInterval = 10 * time.Second
	// DefaultProgressWriteEvery is the shortest time, on average, between
	// two status writes that report nothing but progress, of all the
	// cluster resources a reconciler converges together.
	DefaultProgressWriteEvery = time.Second
	// DefaultMaxConcurrentReconciles is how many cluster resources are
	// reconciled at once.
	DefaultMaxConcurrentReconciles = 4
)

// Watch is one extra watch: events of Object's kind become reconcile
// requests through Handler.
type Watch struct {
	Object  client.Object
	Handler handler.EventHandler
}

// Config configures a product reconciler. Name, For and Roles are
// required; every other field's zero value is its documented default. New
// checks it and refuses a bad one with an error naming the field, at
// startup rather than at the first event.
type Config[CR Object[CR]] struct {
	// Name is the reconciler's fully qualified name, such as
	// "kafka.operators.example.com": the field manager of its writes, the
	// prefix of the annotations the object engine stamps, the name of its
	// controller and the source of its events. Required; a DNS subdomain.
	Name string
	// For is an empty value of the cluster resource type, such as
	// &v1alpha1.KafkaCluster{}; every object the reconciler reads into is
	// a DeepCopy of it. Required.
	For CR
	// Roles declares the product's roles per cluster resource. Required.
	Roles RoleProvider[CR]
	// Handler builds each role group's objects. Nil means a DefaultHandler
	// without product config files.
	Handler RoleGroupHandler[CR]
	// Image is how the product image is resolved (product name, the
	// operator's default image).
	Image imageresolve.Options
	// ManagedBy is the app.kubernetes.io/managed-by value of everything the
	// reconciler builds. Empty means commonsv1alpha1.DefaultManagedBy.
	ManagedBy string
	// Sidecars are the sidecar providers every role group runs (unless a
	// role disables one). Nil means none.
	Sidecars *sidecar.Registry
	// Dependencies lists the ConfigMaps and Secrets a cluster resource
	// refers to; a missing one stops the pass before any role is
	// reconciled, and a change to one reconciles the resources that refer
	// to it. Nil means none.
	Dependencies func(cr CR) []Dependency
	// WorkloadRBAC returns the rules of a namespaced Role bound to the
	// cluster's ServiceAccount, for what its pods call. Nil leaves RBAC
	// alone (no Role, no RoleBinding, nothing revoked); an empty list
	// revokes (the Role and RoleBinding are removed). The operator then
	// needs those permissions itself, and write access to RBAC.
	WorkloadRBAC func(cr CR) []rbacv1.PolicyRule
	// ExtraKinds are the kinds of the objects the product's handler puts in
	// RoleGroupObjects.Extras or its ClusterObjects: the object engine
	// finds objects of these kinds it lost track of, and the orphan
	// cleaner reclaims a removed group's extras of these kinds (carrying
	// the group's labels), and SetupWithManager watches them.
	ExtraKinds []schema.GroupVersionKind
	// ClusterObjects returns further cluster-wide objects of a resource,
	// such as a discovery ConfigMap for clients, applied after the roles.
	// They must sit in the resource's namespace. Nil means none.
	ClusterObjects func(ctx context.Context, cr CR) ([]client.Object, error)
	// Hooks are the product's extensions. Nil means none.
	Hooks *Hooks[CR]
	// HealthCheck, when set, is asked after every pass whose StatefulSets
	// are all ready; an error makes the cluster unavailable (and degraded)
	// with its message. It gets HealthCheckTimeout.
	HealthCheck func(ctx context.Context, cr CR) error
	// HealthCheckTimeout bounds HealthCheck. Zero means
	// DefaultHealthCheckTimeout.
	HealthCheckTimeout time.Duration
	// HealthCheckInterval is how soon a settled cluster is reconciled
	// again. Zero means DefaultHealthCheckInterval; negative disables the
	// periodic pass (watches still trigger passes).
	HealthCheckInterval time.Duration
	// ProgressInterval is how soon a cluster still converging is reconciled
	// again. It also spaces the health check's pod listings: the pods of a
	// role group whose StatefulSet has not settled are listed at most once
	// per interval, and up to four intervals apart while none of them
	// fails; and it paces the status writes that report nothing but
	// progress (the Available and Progressing messages counting ready
	// replicas, an object found ready): while a resource converges, the
	// first such write comes two intervals after its last status write and
	// each next one waits twice as long as the one before, up to eight
	// intervals, while any other status change, and the state a settled
	// pass finds, is written at once, carries the progress with it and
	// starts the spacing again. Zero means DefaultProgressInterval.
	ProgressInterval time.Duration
	// ProgressWriteEvery bounds the progress-only status writes (see
	// ProgressInterval) of all the cluster resources together: one per
	// ProgressWriteEvery on average, so that when many resources roll out
	// at once (an operator started over a fleet, a rollout of every
	// cluster) each reports its progress less often, rather than the
	// reconciler writing more in all. A write this bound defers is made by
	// a later pass of its resource; every other status change is written
	// at once. Zero means DefaultProgressWriteEvery.
	ProgressWriteEvery time.Duration
	// MaxConcurrentGroups is how many role groups of one role a pass
	// reconciles at once (their role-group hooks then run concurrently
	// too). Zero means DefaultMaxConcurrentGroups.
	MaxConcurrentGroups int
	// MaxConcurrentReconciles is how many cluster resources are reconciled
	// at once. Zero means DefaultMaxConcurrentReconciles.
	MaxConcurrentReconciles int
	// Watches are further watches of the product's own, such as a kind its
	// role provider reads: their events become passes through their
	// handlers. Nil means none.
	Watches []Watch
	// Orphan configures the retirement of role groups removed from the
	// spec. Its zero value is orphan's defaults. The reconciler sets its
	// ManagedBy (from ManagedBy) and Clock (from Clock) and adds
	// ExtraKinds to its ExtraKinds; New refuses an Orphan that sets
	// ManagedBy or Clock itself.
	Orphan orphan.Options
	// Apply configures the object engine every write goes through. The
	// reconciler sets its Reader (the manager's API reader), Kinds (the
	// managed kinds: the fixed slots, the RBAC kinds with WorkloadRBAC,
	// ExtraKinds) and Clock (from Clock); New refuses an Apply that sets
	// any of them itself. A Recorder set here receives an event per object
	// the engine writes, which the reconciler does not record otherwise.
	Apply apply.Options
	// Clock tells the time. Nil means the real clock.
	Clock clock.PassiveClock
	// Namespaces restricts the operator to these namespaces: the cache of
	// the manager ManagerOptions configures and the reconciler's own watch
	// of ConfigMaps and Secrets hold only them, so the operator needs no
	// rights outside them. Restrict an operator here rather than in the
	// cache options ManagerOptions returns, which the ConfigMap and Secret
	// watch does not read. Empty means every namespace.
	Namespaces []string
	// Sharding, when set, makes this replica work on its share of the
	// cluster resources only, beside the other replicas of the operator
	// (a *shard.Member of the module github.com/opkit-dev/opkit/shard, run
	// without leader election): ManagerOptions caches only the resources
	// the replica owns, and every pass starts by asking Sharding.Owns. Nil
	// means no sharding: the replica reconciles every resource.
	Sharding Sharding
}

// Sharding is what the reconciler needs of a sharding member, such as the
// shard module's *Member; see Config.Sharding.
type Sharding = shardgate.Sharding

// Dependency is a ConfigMap or Secret a cluster resource refers to.
type Dependency struct {
	// Kind is "ConfigMap" or "Secret".
	Kind string
	// Name is the object's name, in the resource's namespace.
	Name string
	// Field is the absolute path of the field that names it, as the user
	// wrote it ("spec.credentialsSecret"): a missing object is reported
	// there.
	Field string
}

func (c *Config[CR]) validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "reconciler.Config."+field, format, args...))
	}
	if msgs := validation.IsDNS1123Subdomain(c.Name); len(msgs) > 0 {
		bad("Name", "%q is not a DNS subdomain: %v", c.Name, msgs)
	}
	if isNil(c.For) {
		bad("For", "is required: an empty value of the cluster resource type")
	}
	if c.Roles == nil {
		bad("Roles", "is required")
	}
	if c.HealthCheckTimeout < 0 {
		bad("HealthCheckTimeout", "%s is negative", c.HealthCheckTimeout)
	}
	if c.MaxConcurrentGroups < 0 {
		bad("MaxConcurrentGroups", "%d is negative", c.MaxConcurrentGroups)
	}
	if c.ProgressInterval < 0 {
		bad("ProgressInterval", "%s is negative", c.ProgressInterval)
	}
	if c.ProgressWriteEvery < 0 {
		bad("ProgressWriteEvery", "%s is negative", c.ProgressWriteEvery)
	}
	if c.MaxConcurrentReconciles < 0 {
		bad("MaxConcurrentReconciles", "%d is negative", c.MaxConcurrentReconciles)
	}
	for i, w := range c.Watches {
		if w.Object == nil || w.Handler == nil {
			bad(fmt.Sprintf("Watches[%d]", i), "needs an Object and a Handler")
		}
	}
	for _, set := range []struct {
		field, instead string
		isSet          bool
	}{
		{"Apply.Reader", "the reconciler reads through the manager's API reader", c.Apply.Reader != nil},
		{"Apply.Kinds", "list further kinds in ExtraKinds", c.Apply.Kinds != nil},
		{"Apply.Clock", "set Clock", c.Apply.Clock != nil},
		{"Orphan.ManagedBy", "set ManagedBy", c.Orphan.ManagedBy != ""},
		{"Orphan.Clock", "set Clock", c.Orphan.Clock != nil},
	} {
		if set.isSet {
			bad(set.field, "is set by the reconciler; leave it empty (%s)", set.instead)
		}
	}
	errs = append(errs, refs.CheckNamespaces("reconciler.Config.Namespaces", c.Namespaces)...)
	return errors.Join(errs...)
}

func (c *Config[CR]) withDefaults() {
	if c.Handler == nil {
		c.Handler = &DefaultHandler[CR]{}
	}
	c.HealthCheckTimeout = cmp.Or(c.HealthCheckTimeout, DefaultHealthCheckTimeout)
	c.HealthCheckInterval = cmp.Or(c.HealthCheckInterval, DefaultHealthCheckInterval)
	c.ProgressInterval = cmp.Or(c.ProgressInterval, DefaultProgressInterval)
	c.ProgressWriteEvery = cmp.Or(c.ProgressWriteEvery, DefaultProgressWriteEvery)
	c.MaxConcurrentGroups = cmp.Or(c.MaxConcurrentGroups, DefaultMaxConcurrentGroups)
	c.MaxConcurrentReconciles = cmp.Or(c.MaxConcurrentReconciles, DefaultMaxConcurrentReconciles)
	if c.Clock == nil {
		c.Clock = clock.RealClock{}
	}
}

// isNil reports whether v is nil or a nil pointer.
func isNil[T any](v T) bool {
	rv := reflect.ValueOf(any(v))
	return !rv.IsValid() || (rv.Kind() == reflect.Pointer && rv.IsNil())
}
