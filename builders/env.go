package builders

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// mergeEnv returns declared with overrides applied, in an order that keeps
// $(VAR) references working: Kubernetes expands a reference only to a
// variable defined earlier in the list.
//
//   - Declared variables keep their order; one declared again replaces the
//     earlier where it stands.
//   - An override of a declared variable replaces it whole (valueFrom
//     included) where it stands.
//   - Overrides of new variables are appended, each after the new variables
//     its value references, otherwise by name (a map has no order of its
//     own); a reference cycle falls back to names.
//
// The result is deterministic; nil when there is nothing.
func mergeEnv(declared []corev1.EnvVar, overrides map[string]string) []corev1.EnvVar {
	var env []corev1.EnvVar
	index := map[string]int{}
	for _, e := range declared {
		if i, ok := index[e.Name]; ok {
			env[i] = *e.DeepCopy()
			continue
		}
		index[e.Name] = len(env)
		env = append(env, *e.DeepCopy())
	}
	var added []string
	for _, k := range sortedKeys(overrides) {
		if i, ok := index[k]; ok {
			env[i] = corev1.EnvVar{Name: k, Value: overrides[k]}
			continue
		}
		added = append(added, k)
	}
	for _, k := range referenceOrder(added, overrides) {
		env = append(env, corev1.EnvVar{Name: k, Value: overrides[k]})
	}
	return env
}

// referenceOrder orders names (sorted) so that each comes after the names
// its value references: repeatedly the first name whose references are all
// placed, or the first remaining one when a cycle leaves none.
func referenceOrder(names []string, values map[string]string) []string {
	deps := map[string][]string{}
	for _, n := range names {
		for _, ref := range envReferences(values[n]) {
			if ref != n && slices.Contains(names, ref) {
				deps[n] = append(deps[n], ref)
			}
		}
	}
	placed := map[string]bool{}
	out := make([]string, 0, len(names))
	for len(out) < len(names) {
		next := ""
		for _, n := range names {
			if placed[n] {
				continue
			}
			if next == "" {
				next = n // the cycle fallback: first remaining by name
			}
			ready := true
			for _, d := range deps[n] {
				ready = ready && placed[d]
			}
			if ready {
				next = n
				break
			}
		}
		placed[next] = true
		out = append(out, next)
	}
	return out
}

// envReferences returns the names a value references as $(NAME), skipping
// the $$ escape, as the kubelet reads them.
func envReferences(v string) []string {
	var refs []string
	for i := 0; i < len(v)-1; i++ {
		if v[i] != '$' {
			continue
		}
		switch v[i+1] {
		case '$':
			i++
		case '(':
			for j := i + 2; j < len(v); j++ {
				if v[j] == ')' {
					refs = append(refs, v[i+2:j])
					i = j
					break
				}
			}
		}
	}
	return refs
}
