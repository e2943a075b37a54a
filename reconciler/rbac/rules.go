package rbac

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Verbs of the rules, named once.
const (
	Get         = "get"
	List        = "list"
	Watch       = "watch"
	Create      = "create"
	Update      = "update"
	Patch       = "patch"
	Delete      = "delete"
	Impersonate = "impersonate"
)

// Read are the verbs of a kind read through a cache: get, list, watch.
var Read = []string{Get, List, Watch}

// EngineVerbs are the verbs the object engine (package apply) uses on a
// kind it applies: reads through the manager's informer, create, update
// (its replace policy), patch (server-side apply policies, the release of
// an object, progress marks) and delete.
var EngineVerbs = []string{Get, List, Watch, Create, Update, Patch, Delete}

// Permissions are the rights an operator needs: rules on namespaced
// resources, which a Role grants in one namespace or a ClusterRole in all
// of them, and rules on cluster-scoped resources (and impersonation),
// which only a ClusterRole grants. Each list is merged and sorted.
type Permissions struct {
	Namespaced []rbacv1.PolicyRule
	Cluster    []rbacv1.PolicyRule
}

// Set collects verbs resource by resource; Permissions merges them.
// The zero value is empty and ready to use.
type Set struct {
	verbs map[resourceKey]map[string]bool
}

type resourceKey struct {
	cluster  bool
	group    string
	resource string
}

// Add grants verbs on the resources of group, namespaced or not.
func (s *Set) Add(namespaced bool, group string, resources []string, verbs ...string) {
	if s.verbs == nil {
		s.verbs = map[resourceKey]map[string]bool{}
	}
	for _, r := range resources {
		k := resourceKey{cluster: !namespaced, group: group, resource: r}
		if s.verbs[k] == nil {
			s.verbs[k] = map[string]bool{}
		}
		for _, v := range verbs {
			s.verbs[k][v] = true
		}
	}
}

// AddPermissions adds every rule of p.
func (s *Set) AddPermissions(p Permissions) {
	for _, set := range []struct {
		namespaced bool
		rules      []rbacv1.PolicyRule
	}{{true, p.Namespaced}, {false, p.Cluster}} {
		for _, r := range set.rules {
			for _, g := range r.APIGroups {
				s.Add(set.namespaced, g, r.Resources, r.Verbs...)
			}
		}
	}
}

// Permissions returns the rules: one per API group and set of verbs,
// resources and verbs sorted, rules sorted by group then resources.
func (s *Set) Permissions() Permissions {
	type ruleKey struct {
		cluster bool
		group   string
		verbs   string
	}
	resources := map[ruleKey][]string{}
	for k, vs := range s.verbs {
		verbs := slices.Sorted(maps.Keys(vs))
		rk := ruleKey{cluster: k.cluster, group: k.group, verbs: strings.Join(verbs, ",")}
		resources[rk] = append(resources[rk], k.resource)
	}
	var p Permissions
	for _, rk := range slices.SortedFunc(maps.Keys(resources), func(a, b ruleKey) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.verbs, b.verbs))
	}) {
		rule := rbacv1.PolicyRule{APIGroups: []string{rk.group}, Resources: slices.Sorted(slices.Values(resources[rk])), Verbs: strings.Split(rk.verbs, ",")}
		if rk.cluster {
			p.Cluster = append(p.Cluster, rule)
		} else {
			p.Namespaced = append(p.Namespaced, rule)
		}
	}
	slices.SortStableFunc(p.Namespaced, compareRules)
	slices.SortStableFunc(p.Cluster, compareRules)
	return p
}

func compareRules(a, b rbacv1.PolicyRule) int {
	return cmp.Or(cmp.Compare(strings.Join(a.APIGroups, ","), strings.Join(b.APIGroups, ",")),
		cmp.Compare(strings.Join(a.Resources, ","), strings.Join(b.Resources, ",")))
}

// Merge returns the union of permissions, merged and sorted.
func Merge(ps ...Permissions) Permissions {
	var s Set
	for _, p := range ps {
		s.AddPermissions(p)
	}
	return s.Permissions()
}

// AddKinds grants verbs on the resources of kinds, each in its scope.
func (s *Set) AddKinds(resolver Resolver, kinds []schema.GroupVersionKind, verbs ...string) error {
	for _, k := range kinds {
		res, namespaced, err := resolver.Resource(k)
		if err != nil {
			return err
		}
		s.Add(namespaced, k.Group, []string{res}, verbs...)
	}
	return nil
}
