package reconciler

import (
	"context"
	"errors"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/builders"
)

// clusterScope builds the resource's Scope without role and group.
func (r *Reconciler[CR]) clusterScope(cr CR) builders.Scope {
	return builders.Scope{
		Namespace: cr.GetNamespace(), Cluster: cr.GetName(),
		ProductName: r.cfg.Image.ProductName, ManagedBy: r.cfg.ManagedBy,
		ClusterLabels: cr.GetLabels(),
	}
}

// serviceAccountName is the ServiceAccount of a cluster's pods, derived
// from the kind and the name (a name alone is not unique in a namespace).
func (r *Reconciler[CR]) serviceAccountName(cr CR) string {
	return builders.ServiceAccountName(r.kind, cr.GetName())
}

// reconcileCluster applies the cluster-wide objects: the ServiceAccount,
// the workload Role and RoleBinding when WorkloadRBAC is set, and the
// product's ClusterObjects. When those cannot be built the scope is left
// as it is (nothing of it deleted) and the pass goes on: the roles do not
// depend on them beyond the ServiceAccount, which an earlier pass made.
func (r *Reconciler[CR]) reconcileCluster(ctx context.Context, p *pass, cr CR) error {
	scope := r.clusterScope(cr)
	sa := r.serviceAccountName(cr)
	objs := []client.Object{builders.ServiceAccount(scope, sa)}
	var release func(inventory.Ref) bool
	if r.cfg.WorkloadRBAC == nil {
		// Not the operator's business: leave any Role or RoleBinding be.
		release = func(ref inventory.Ref) bool {
			return ref.Group == rbacv1.GroupName && (ref.Kind == "Role" || ref.Kind == "RoleBinding")
		}
	} else if rules := r.cfg.WorkloadRBAC(cr); len(rules) > 0 {
		if err := r.checkRoleBinding(ctx, cr, sa); err != nil {
			return err
		}
		objs = append(objs, builders.Role(scope, sa, rules), builders.RoleBinding(scope, sa))
	}
	if r.cfg.ClusterObjects != nil {
		extra, err := r.cfg.ClusterObjects(ctx, cr)
		if err != nil {
			return fmt.Errorf("cluster objects: %w", err)
		}
		if err := checkNamespace(cr, "ClusterObjects", extra); err != nil {
			return err
		}
		objs = append(objs, extra...)
	}
	_, err := r.applyScope(ctx, p, cr, clusterOwnerID(cr), &cr.GetClusterStatus().Objects, objs, release)
	return err
}

// checkRoleBinding refuses a RoleBinding of the ServiceAccount's name that
// someone else made for another Role: its roleRef cannot change, so it
// could never be taken over. A binding the cluster's inventory already
// holds is the reconciler's own and is not read again.
func (r *Reconciler[CR]) checkRoleBinding(ctx context.Context, cr CR, name string) error {
	inv := &cr.GetClusterStatus().Objects
	key := inventory.Key{Group: rbacv1.GroupName, Kind: "RoleBinding", Namespace: cr.GetNamespace(), Name: name}
	if inventory.NewIndex(inv).Find(inv, key) != nil {
		return nil
	}
	rb := &rbacv1.RoleBinding{}
	err := r.apiReader.Get(ctx, client.ObjectKey{Namespace: cr.GetNamespace(), Name: name}, rb)
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		return fmt.Errorf("reading RoleBinding %s: %w", name, err)
	}
	want := rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name}
	if rb.RoleRef != want {
		return failure.Invalid(failure.AuthorUser, "RoleBinding "+cr.GetNamespace()+"/"+name,
			"exists and binds %s %q; the cluster's pods need it to bind Role %q, and a binding's roleRef cannot change: delete or rename it",
			rb.RoleRef.Kind, rb.RoleRef.Name, name)
	}
	return nil
}

// checkNamespace refuses objects outside the cluster's namespace: the
// cluster resource cannot own them, so nothing would ever remove them.
func checkNamespace(cr Cluster, field string, objs []client.Object) error {
	var errs []error
	for i, o := range objs {
		if o == nil {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, fmt.Sprintf("%s[%d]", field, i), "is nil"))
			continue
		}
		if ns := o.GetNamespace(); ns != "" && ns != cr.GetNamespace() {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, fmt.Sprintf("%s[%d]", field, i),
				"%s is in namespace %q, not the cluster's %q", o.GetName(), ns, cr.GetNamespace()))
		}
		if o.GetName() == "" {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, fmt.Sprintf("%s[%d]", field, i), "has no name"))
		}
	}
	return errors.Join(errs...)
}
