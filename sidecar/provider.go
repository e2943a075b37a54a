package sidecar

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

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

// Provider contributes to a role group's pods. Implementations are
// immutable: one provider value serves many concurrent builds, so neither
// method may modify the receiver.
type Provider interface {
	// Name identifies the provider within a Registry; it is also its order
	// among providers of the same phase.
	Name() string
	// Phase places the provider in the injection order.
	Phase() Phase
	// Inject adds the provider's containers, volumes and settings to spec.
	// Find the main container by target.MainContainer, never by position.
	Inject(spec *corev1.PodSpec, target builders.PodTarget) error
	// Requirements declares the ConfigMaps and Secrets (and their keys) the
	// provider's additions need, such as a ConfigMap it mounts. The caller
	// reads them and judges each with Requirement.Check before the
	// StatefulSet is applied; the provider never reads the cluster.
	Requirements(target builders.PodTarget) []Requirement
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
