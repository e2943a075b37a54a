package sidecar

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/builders"
)

// Phase orders providers: every provider of an earlier phase is injected
// before any provider of a later one, so a provider can rely on what the
// earlier phases put into the pod spec.
type Phase int

// The phases, in injection order.
const (
	// PhaseProducer is for providers that produce something others consume,
	// such as files written into a shared volume.
	PhaseProducer Phase = iota
	// PhaseDefault is for providers that stand alone, such as a metrics
	// exporter.
	PhaseDefault
	// PhasePipeline is for providers that consume what the containers and
	// earlier providers produce, such as a log agent reading every log
	// directory.
	PhasePipeline
)

// Phases returns every phase in injection order.
func Phases() []Phase { return []Phase{PhaseProducer, PhaseDefault, PhasePipeline} }

// String returns the phase's lower-case name.
func (p Phase) String() string {
	switch p {
	case PhaseProducer:
		return "producer"
	case PhaseDefault:
		return "default"
	case PhasePipeline:
		return "pipeline"
	default:
		return fmt.Sprintf("phase(%d)", int(p))
	}
}

// Target is the role group a provider injects into and validates for.
type Target struct {
	// Scope is the role group: its namespace, cluster, role and group.
	Scope builders.Scope
	// MainContainer is the name of the product's primary container.
	// Providers find it by name, never by position.
	MainContainer string
}

// ConfigMapName returns the name of the role group's own ConfigMap, the
// bounded resource name of its scope.
func (t Target) ConfigMapName() string { return t.Scope.ResourceName() }

// Provider contributes to a role group's pods. Implementations must not
// modify themselves in Inject or Validate: one provider value serves many
// concurrent builds.
type Provider interface {
	// Name identifies the provider within a Manager; it is also its order
	// among providers of the same phase.
	Name() string
	// Phase places the provider in the injection order.
	Phase() Phase
	// Inject adds the provider's containers, volumes and settings to spec.
	Inject(spec *corev1.PodSpec, target Target) error
	// Validate checks the objects the provider's additions depend on, such
	// as a ConfigMap it mounts. A missing object is reported as a
	// *MissingObjectError; any other error is treated as transient.
	Validate(ctx context.Context, r client.Reader, target Target) error
}

// ProductImage is the image the product's own containers run, resolved
// once per build.
type ProductImage struct {
	// Reference is the image reference.
	Reference string
	// PullPolicy is the pull policy; empty leaves it to Kubernetes.
	PullPolicy corev1.PullPolicy
}

// ImageUser is a Provider whose containers can run the product image, for
// example because the product image ships the tool it runs.
type ImageUser interface {
	Provider
	// WithProductImage returns a copy of the provider that uses image. It
	// must not modify the receiver, which other builds may be using.
	WithProductImage(image ProductImage) Provider
}
