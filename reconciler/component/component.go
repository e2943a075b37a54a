package component

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
)

// Component is what a component custom resource implements: a
// client.Object whose spec holds the generator's parameters and whose
// status embeds the Status the reconciler owns.
type Component interface {
	client.Object
	// GetSpec returns a pointer to the spec struct. The reconciler reads
	// the parameters from it and loads the references it holds into it;
	// the optional interfaces below may be implemented by it.
	GetSpec() any
	// GetStatus returns a pointer to the embedded Status.
	GetStatus() *componentv1alpha1.Status
}

// The optional interfaces. A component, or its spec (usually through an
// embedded block of package api/component/v1alpha1), implements those it
// supports; the component is asked first. A zero or empty answer means the
// reconciler's default.

// PlacementConfiguration says where the objects go (PlacementSpec).
type PlacementConfiguration interface {
	// GetTargetNamespace is the namespace of the rendered objects that do
	// not name one, and the namespace passed to the generator.
	GetTargetNamespace() string
	// GetTargetName is the name passed to the generator.
	GetTargetName() string
}

// ClientConfiguration applies the objects to another cluster
// (ClientSpec).
type ClientConfiguration interface {
	// GetKubeConfig returns the target cluster's kubeconfig; nil means the
	// component's own cluster.
	GetKubeConfig() []byte
}

// ImpersonationConfiguration names the identity the local client (and,
// without a ClientConfiguration kubeconfig, the target client) acts as.
type ImpersonationConfiguration interface {
	// GetImpersonationUser returns the user, such as
	// "system:serviceaccount:<namespace>:<name>"; empty means none.
	GetImpersonationUser() string
	// GetImpersonationGroups returns the groups; nil means none.
	GetImpersonationGroups() []string
}

// ServiceAccountConfiguration impersonates a service account of the
// component's namespace (ImpersonationSpec). ImpersonationConfiguration
// wins when both are implemented.
type ServiceAccountConfiguration interface {
	// GetServiceAccountName returns the service account; empty means
	// Options.DefaultServiceAccount.
	GetServiceAccountName() string
}

// SuspensionConfiguration lets a component be suspended (SuspensionSpec).
type SuspensionConfiguration interface {
	// IsSuspended stops applying while true. Deletion goes on.
	IsSuspended() bool
}

// RequeueConfiguration sets the interval between passes of a ready
// component (RequeueSpec).
type RequeueConfiguration interface {
	GetRequeueInterval() time.Duration
}

// RetryConfiguration sets the delay before a transiently failed pass is
// retried (RetrySpec).
type RetryConfiguration interface {
	GetRetryInterval() time.Duration
}

// TimeoutConfiguration bounds the time the objects may take to become
// ready (TimeoutSpec).
type TimeoutConfiguration interface {
	GetTimeout() time.Duration
}

// PolicyConfiguration overrides the reconciler's policies for the
// component's objects (PolicySpec). Values are the policy names of package
// apply; empty keeps the reconciler's.
type PolicyConfiguration interface {
	GetAdoptionPolicy() string
	GetUpdatePolicy() string
	GetDeletePolicy() string
	GetMissingNamespacesPolicy() string
}

// TypeConfiguration lists further managed types whose foreign instances
// block the component's deletion (TypeSpec).
type TypeConfiguration interface {
	GetAdditionalManagedTypes() []componentv1alpha1.ManagedType
}

// ReapplyConfiguration sets the interval after which unchanged objects are
// written again (ReapplySpec).
type ReapplyConfiguration interface {
	GetReapplyInterval() time.Duration
}

// CustomReference is a spec field that loads its own data, for references
// to something other than a ConfigMap or Secret. The reconciler finds it
// in the spec like the reference types of api/component/v1alpha1, calls
// Load with an uncached reader of the component's cluster and the
// component's namespace, and folds Digest into the component digest.
// Changes of what it loads are seen at the next pass, not through a watch.
type CustomReference interface {
	Load(ctx context.Context, reader client.Reader, namespace string) error
	// Digest identifies what the last Load loaded.
	Digest() string
}

// configuration returns the first of the component and its spec that
// implements I.
func configuration[I any](c Component) (I, bool) {
	if v, ok := any(c).(I); ok {
		return v, true
	}
	v, ok := c.GetSpec().(I)
	return v, ok
}
