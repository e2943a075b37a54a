package sidecar

import (
	"cmp"
	"slices"
	"sync"
)

// Manager holds providers, which of them are enabled, and the product
// image. Its methods are safe for concurrent use, but a Manager shared by
// concurrent builds would let one build's SetProductImage or Disable leak
// into another: give each build its own copy with CloneForBuild.
type Manager struct {
	mu        sync.RWMutex
	providers map[string]*entry
	image     *ProductImage
}

type entry struct {
	provider Provider
	enabled  bool
}

// NewManager returns an empty Manager.
func NewManager() *Manager {
	return &Manager{providers: map[string]*entry{}}
}

// Register adds p, enabled. A provider with an empty name, an unknown
// phase, or the name of a registered provider is refused with a
// *RegistrationError. When the Manager already has a product image and p
// is an ImageUser, p is registered with that image.
func (m *Manager) Register(p Provider) error {
	if p == nil {
		return &RegistrationError{Message: "is nil"}
	}
	name := p.Name()
	if name == "" {
		return &RegistrationError{Message: "has an empty name"}
	}
	if !slices.Contains(Phases(), p.Phase()) {
		return &RegistrationError{Provider: name, Message: "has unknown " + p.Phase().String()}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.providers[name]; dup {
		return &RegistrationError{Provider: name, Message: "is already registered"}
	}
	if u, ok := p.(ImageUser); ok && m.image != nil {
		p = u.WithProductImage(*m.image)
	}
	m.providers[name] = &entry{provider: p, enabled: true}
	return nil
}

// Enable turns the named provider on. An unknown name is a
// *RegistrationError.
func (m *Manager) Enable(name string) error { return m.setEnabled(name, true) }

// Disable turns the named provider off: Inject and ValidateAll skip it. An
// unknown name is a *RegistrationError.
func (m *Manager) Disable(name string) error { return m.setEnabled(name, false) }

func (m *Manager) setEnabled(name string, on bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.providers[name]
	if !ok {
		return &RegistrationError{Provider: name, Message: "is not registered"}
	}
	e.enabled = on
	return nil
}

// Enabled reports whether the named provider is registered and enabled.
func (m *Manager) Enabled(name string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	e, ok := m.providers[name]
	return ok && e.enabled
}

// SetProductImage hands image to every registered ImageUser, and to those
// registered later.
func (m *Manager) SetProductImage(image ProductImage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.image = &image
	for _, e := range m.providers {
		if u, ok := e.provider.(ImageUser); ok {
			e.provider = u.WithProductImage(image)
		}
	}
}

// CloneForBuild returns an independent copy: registering, enabling,
// disabling or setting the image on either side never shows on the other.
// Providers themselves are shared, which is safe because they do not
// modify themselves (see Provider).
func (m *Manager) CloneForBuild() *Manager {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c := &Manager{providers: make(map[string]*entry, len(m.providers))}
	for name, e := range m.providers {
		c.providers[name] = &entry{provider: e.provider, enabled: e.enabled}
	}
	if m.image != nil {
		image := *m.image
		c.image = &image
	}
	return c
}

// Names returns the names of the enabled providers in injection order:
// by phase, then by name.
func (m *Manager) Names() []string {
	var names []string
	for _, p := range m.ordered() {
		names = append(names, p.Name())
	}
	return names
}

// ordered returns the enabled providers in injection order.
func (m *Manager) ordered() []Provider {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ps := make([]Provider, 0, len(m.providers))
	for _, e := range m.providers {
		if e.enabled {
			ps = append(ps, e.provider)
		}
	}
	slices.SortFunc(ps, func(a, b Provider) int {
		return cmp.Or(cmp.Compare(a.Phase(), b.Phase()), cmp.Compare(a.Name(), b.Name()))
	})
	return ps
}
