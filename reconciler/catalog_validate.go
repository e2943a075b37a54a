package reconciler

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// UnknownRoleError reports a role the cluster resource configures that the
// product's catalog does not declare: usually a typo. It is the user's
// mistake (failure.ErrInvalid); the other roles are still reconciled.
type UnknownRoleError struct {
	// Role is the role name as written in spec.roles.
	Role string
	// NearMisses are declared roles close to Role, closest first.
	NearMisses []string
	// Declared are all declared roles, sorted.
	Declared []string
}

// Error names the field, the near misses and the declared roles.
func (e *UnknownRoleError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the product has no role %q", e.FieldPath(), e.Role)
	if len(e.NearMisses) > 0 {
		fmt.Fprintf(&b, "; did you mean %s?", quoteJoin(e.NearMisses, " or "))
	}
	fmt.Fprintf(&b, " (roles: %s)", quoteJoin(e.Declared, ", "))
	return b.String()
}

// Is reports failure.ErrInvalid.
func (e *UnknownRoleError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns failure.AuthorUser.
func (e *UnknownRoleError) Blame() failure.Author { return failure.AuthorUser }

// FieldPath returns spec.roles.<role>.
func (e *UnknownRoleError) FieldPath() string {
	return commonsv1alpha1.LayerRole.FieldPath(e.Role, "", "")
}

// ValidateCatalog checks the roles a cluster resource configures against
// the product's catalog, asymmetrically. A configured role the catalog does
// not declare is an *UnknownRoleError (joined, one per role, sorted); a
// declared role the spec does not use and that is not Optional is returned
// in unused, sorted, for a Warning: a product may support more roles than
// one cluster runs.
func ValidateCatalog(spec *commonsv1alpha1.ClusterSpec, catalog Catalog) (unused []string, err error) {
	declared := slices.Sorted(maps.Keys(catalog))
	var errs []error
	for _, role := range slices.Sorted(maps.Keys(spec.Roles)) {
		if _, ok := catalog[role]; !ok {
			errs = append(errs, &UnknownRoleError{Role: role, NearMisses: nearMisses(role, declared), Declared: declared})
		}
	}
	for _, role := range declared {
		if _, used := spec.Roles[role]; !used && !catalog[role].Optional {
			unused = append(unused, role)
		}
	}
	return unused, errors.Join(errs...)
}

// nearMisses returns the candidates within a small edit distance of name
// (at most a third of its length, at least 2) or sharing a prefix of three
// or more characters with it, closest first.
func nearMisses(name string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	limit := max(2, len(name)/3)
	var hits []scored
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(name, c)
		if d <= limit || commonPrefix(name, c) >= 3 {
			hits = append(hits, scored{c, d})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	slices.SortFunc(hits, func(a, b scored) int { return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.name, b.name)) })
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.name
	}
	return out
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func quoteJoin(names []string, sep string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, sep)
}
