package v1alpha1

import "strings"

// Entries returns the scope as the secret operator's scope annotation
// lists it, in a fixed order (pod, node, services, listener volumes, each
// list as given), or nil for a nil or empty scope.
func (s *Scope) Entries() []string {
	if s == nil {
		return nil
	}
	var out []string
	if s.Pod {
		out = append(out, ScopePod)
	}
	if s.Node {
		out = append(out, ScopeNode)
	}
	for _, svc := range s.Services {
		out = append(out, ScopeServicePrefix+svc)
	}
	for _, v := range s.ListenerVolumes {
		out = append(out, ScopeListenerVolumePrefix+v)
	}
	return out
}

// String returns the scope annotation's value: Entries joined by commas.
func (s *Scope) String() string { return strings.Join(s.Entries(), ",") }
