package orphan

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// Input is what one pass works from.
type Input struct {
	// Owner is the cluster resource. Its namespace and name scope the work;
	// its kind, as the client's scheme knows it, labels the metrics. Its
	// UID enables live discovery and the role PodDisruptionBudget reclaim;
	// an empty UID disables both. Its AnnotationDeletePVCs annotation, set
	// to "true", lets the teardown delete volume claims.
	Owner client.Object
	// Declared lists the role groups the spec declares.
	Declared []v1alpha1.RoleGroupRef
	// DeclaredRoles lists the roles the spec declares, including roles
	// without groups. Roles of Declared count as declared too.
	DeclaredRoles []string
	// Ledger is the status ledger of applied role groups
	// (ClusterStatus.RoleGroups). The groups' names are read, and the
	// kinds their inventories record: the verdict that nothing of a group
	// is left is confirmed with an uncached read of those kinds only (of
	// every kind the teardown deletes when the inventory is empty).
	Ledger []v1alpha1.RoleGroupStatus
}

// scope is the cluster a pass works on.
type scope struct {
	kind, namespace, cluster string
	uid                      types.UID
	managedBy                string
	deletePVCs               bool
}

// scope checks the owner and returns the pass's scope. A missing owner, a
// missing name or namespace, or a kind the scheme does not know is the
// operator's mistake.
func (c *Cleaner) scope(owner client.Object) (scope, error) {
	const field = "orphan.Input.Owner"
	if owner == nil {
		return scope{}, failure.Invalid(failure.AuthorOperator, field, "is required")
	}
	if owner.GetNamespace() == "" || owner.GetName() == "" {
		return scope{}, failure.Invalid(failure.AuthorOperator, field, "needs a namespace and a name, got %q/%q", owner.GetNamespace(), owner.GetName())
	}
	gvk, err := apiutil.GVKForObject(owner, c.client.Scheme())
	if err != nil {
		e := failure.Invalid(failure.AuthorOperator, field, "has a kind the client's scheme does not know")
		e.Err = err
		return scope{}, e
	}
	managedBy := c.opts.ManagedBy
	if managedBy == "" {
		managedBy = v1alpha1.DefaultManagedBy
	}
	return scope{
		kind:       gvk.Kind,
		namespace:  owner.GetNamespace(),
		cluster:    owner.GetName(),
		uid:        owner.GetUID(),
		managedBy:  managedBy,
		deletePVCs: owner.GetAnnotations()[v1alpha1.AnnotationDeletePVCs] == "true",
	}, nil
}

// checkRefs returns the declared and ledger groups that name a role and a
// group, declared sorted and without duplicates, and an error blaming the
// operator for each entry that does not: it names no object, so it is left
// out and fails nothing else.
func checkRefs(in Input) (declared, ledger []v1alpha1.RoleGroupRef, errs []error) {
	keep := func(field string, refs []v1alpha1.RoleGroupRef) []v1alpha1.RoleGroupRef {
		var out []v1alpha1.RoleGroupRef
		for i, ref := range refs {
			if ref.Role == "" || ref.Group == "" {
				errs = append(errs, failure.Invalid(failure.AuthorOperator, fmt.Sprintf("orphan.Input.%s[%d]", field, i),
					"needs a role and a group, got %q/%q", ref.Role, ref.Group))
				continue
			}
			out = append(out, ref)
		}
		return out
	}
	declared = keep("Declared", in.Declared)
	slices.SortFunc(declared, compareRefs)
	declared = slices.Compact(declared)
	entries := make([]v1alpha1.RoleGroupRef, len(in.Ledger))
	for i, e := range in.Ledger {
		entries[i] = e.RoleGroupRef
	}
	return declared, keep("Ledger", entries), errs
}
