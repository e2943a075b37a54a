package sidecar

import (
	"cmp"
	"errors"
	"slices"
)

// Registry holds the providers an operator offers every role group. Build
// it once at start-up with NewRegistry; it never changes afterwards, so one
// Registry serves concurrent builds without locks. Each build derives its
// own immutable Plan from it.
type Registry struct {
	providers []Provider // in injection order
}

// NewRegistry returns a Registry of providers. A nil provider, an empty
// name, an unknown phase or a name given twice is a *RegistrationError,
// all of them joined.
func NewRegistry(providers ...Provider) (*Registry, error) {
	ordered, err := order(providers)
	if err != nil {
		return nil, err
	}
	return &Registry{providers: ordered}, nil
}

// Names returns the registered providers' names in injection order.
func (r *Registry) Names() []string { return names(r.providers) }

// order checks providers and returns them sorted by phase, then name.
func order(providers []Provider) ([]Provider, error) {
	var errs []error
	seen := map[string]bool{}
	out := make([]Provider, 0, len(providers))
	for _, p := range providers {
		if p == nil {
			errs = append(errs, &RegistrationError{Message: "is nil"})
			continue
		}
		name := p.Name()
		switch {
		case name == "":
			errs = append(errs, &RegistrationError{Message: "has an empty name"})
		case !slices.Contains(Phases(), p.Phase()):
			errs = append(errs, &RegistrationError{Provider: name, Message: "has unknown " + p.Phase().String()})
		case seen[name]:
			errs = append(errs, &RegistrationError{Provider: name, Message: "is given twice"})
		default:
			seen[name] = true
			out = append(out, p)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(out, func(a, b Provider) int {
		return cmp.Or(cmp.Compare(a.Phase(), b.Phase()), cmp.Compare(a.Name(), b.Name()))
	})
	return out, nil
}

func names(ps []Provider) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Name())
	}
	return out
}
