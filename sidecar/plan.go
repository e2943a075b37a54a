package sidecar

import (
	"errors"
	"slices"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/builders"
)

// PlanOptions says what one build takes from a Registry. The zero value
// runs every registered provider without a product image.
type PlanOptions struct {
	// ProductImage is the image of this build's product containers; every
	// ImageUser provider gets it. Zero means none: a provider that needs
	// it fails to inject.
	ProductImage ProductImage
	// Disabled names registered providers this build leaves out. A name
	// that is not registered is a *RegistrationError.
	Disabled []string
	// Extra are providers for this build alone, such as a log agent whose
	// options depend on the role. They are checked like registered ones,
	// and their names must not clash with registered ones.
	Extra []Provider
}

// Plan is the sidecars of one build: the enabled providers, in injection
// order (phase, then name), holding the build's product image. It never
// changes after Registry.Plan returns it, so nothing of one build can leak
// into another. It implements builders.PodInjector, so the StatefulSet
// builder injects it before the pod overrides. A nil *Plan has no
// providers.
type Plan struct {
	providers []Provider
}

var _ builders.PodInjector = (*Plan)(nil)

// Plan derives one build's plan from the registry.
func (r *Registry) Plan(opts PlanOptions) (*Plan, error) {
	var errs []error
	registered := map[string]bool{}
	for _, p := range r.providers {
		registered[p.Name()] = true
	}
	for _, name := range opts.Disabled {
		if !registered[name] {
			errs = append(errs, &RegistrationError{Provider: name, Message: "is not registered, so it cannot be disabled"})
		}
	}
	var enabled []Provider
	for _, p := range r.providers {
		if !slices.Contains(opts.Disabled, p.Name()) {
			enabled = append(enabled, p)
		}
	}
	ordered, err := order(append(enabled, opts.Extra...))
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for i, p := range ordered {
		if u, ok := p.(ImageUser); ok && opts.ProductImage != (ProductImage{}) {
			ordered[i] = u.WithProductImage(opts.ProductImage)
		}
	}
	return &Plan{providers: ordered}, nil
}

// Names returns the names of the plan's providers in injection order.
func (p *Plan) Names() []string {
	if p == nil {
		return nil
	}
	return names(p.providers)
}

// Inject runs every provider of the plan on spec in injection order. It is
// all or nothing: when a provider fails, or two additions collide, spec is
// left as it was and the error is an *InjectError naming the provider.
func (p *Plan) Inject(spec *corev1.PodSpec, target builders.PodTarget) error {
	if p == nil {
		return nil
	}
	work := spec.DeepCopy()
	for _, prov := range p.providers {
		before := podNamesOf(work)
		if err := prov.Inject(work, target); err != nil {
			return &InjectError{Provider: prov.Name(), Err: err}
		}
		if err := newDuplicate(before, podNamesOf(work)); err != nil {
			return &InjectError{Provider: prov.Name(), Err: err}
		}
	}
	*spec = *work
	return nil
}

// Requirements returns every provider's requirements, in injection order,
// each carrying its provider's name. Read each object and judge it with
// Requirement.Check (or CheckAll) before the StatefulSet is applied: pods
// that mount a missing ConfigMap or Secret would only fail to start.
func (p *Plan) Requirements(target builders.PodTarget) []Requirement {
	if p == nil {
		return nil
	}
	var reqs []Requirement
	for _, prov := range p.providers {
		for _, r := range prov.Requirements(target) {
			r.Provider = prov.Name()
			r.Keys = slices.Clone(r.Keys)
			reqs = append(reqs, r)
		}
	}
	return reqs
}

// podNames counts the container and volume names of a pod spec.
type podNames struct {
	containers map[string]int
	volumes    map[string]int
}

func podNamesOf(spec *corev1.PodSpec) podNames {
	n := podNames{containers: map[string]int{}, volumes: map[string]int{}}
	for _, c := range spec.InitContainers {
		n.containers[c.Name]++
	}
	for _, c := range spec.Containers {
		n.containers[c.Name]++
	}
	for _, v := range spec.Volumes {
		n.volumes[v.Name]++
	}
	return n
}

// newDuplicate returns a *ConflictError for a container or volume name that
// a provider made appear twice. Duplicates the spec already had are not the
// provider's doing and are left to the API server.
func newDuplicate(before, after podNames) error {
	for _, name := range sortedKeys(after.containers) {
		if n := after.containers[name]; n > 1 && n > before.containers[name] {
			return &ConflictError{Kind: "container", Name: name}
		}
	}
	for _, name := range sortedKeys(after.volumes) {
		if n := after.volumes[name]; n > 1 && n > before.volumes[name] {
			return &ConflictError{Kind: "volume", Name: name}
		}
	}
	return nil
}
