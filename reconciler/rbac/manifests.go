package rbac

import (
	"errors"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
)

// ManifestOptions name and place the objects Manifests writes.
type ManifestOptions struct {
	// Name names the role of the reconcilers' rules and its binding (both
	// Name), and prefixes those of leader election
	// ("<Name>-leader-election"). Required.
	Name string
	// ServiceAccount is the name of the operator's ServiceAccount, in
	// Namespace. Required.
	ServiceAccount string
	// Namespace is where the operator runs: its ServiceAccount and the
	// leader election Role live there. Required.
	Namespace string
	// Namespaces restricts the operator to these namespaces: a Role and a
	// RoleBinding in each grant the namespaced rules, and a ClusterRole
	// only the cluster-scoped ones. Empty means one ClusterRole for all.
	Namespaces []string
	// LeaderElection adds the Role and RoleBinding leader election needs
	// in Namespace.
	LeaderElection bool
	// Sharding adds the Role and RoleBinding a sharding member (package
	// shard) needs for its Leases, ShardRules, in Namespace
	// ("<Name>-shard"): the member's shard.Options.Namespace must be the
	// operator's Namespace. The member's labels on the resources are
	// among the reconciler's Permissions when its Sharding option is set.
	Sharding bool
}

// LeaderElectionRules are the rules of controller-runtime's leader
// election: its Lease, and the events it records about it.
func LeaderElectionRules() []rbacv1.PolicyRule {
	var s Set
	s.Add(true, "coordination.k8s.io", []string{"leases"}, Get, Create, Update)
	s.Add(true, "", []string{"events"}, Create, Patch)
	return s.Permissions().Namespaced
}

// ShardRules are the rules of a sharding member (package shard) in the
// namespace of its Leases: its own Lease read, created, renewed and
// deleted when it leaves, the others' listed to know the ring, and a gone
// member's deleted before its resources are taken over.
func ShardRules() []rbacv1.PolicyRule {
	var s Set
	s.Add(true, "coordination.k8s.io", []string{"leases"}, Get, List, Create, Update, Delete)
	return s.Permissions().Namespaced
}

// Manifests returns the RBAC objects that grant p to the operator's
// ServiceAccount, in a fixed order: cluster roles and bindings, then the
// roles and bindings of each namespace (sorted), then leader election's,
// then the sharding member's.
// A bad option is an error naming the field.
func Manifests(p Permissions, o ManifestOptions) ([]client.Object, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	subject := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: o.ServiceAccount, Namespace: o.Namespace}
	manager := o.Name
	var out []client.Object
	clusterRules := p.Cluster
	if len(o.Namespaces) == 0 {
		clusterRules = append(slices.Clone(p.Namespaced), p.Cluster...)
	}
	if len(clusterRules) > 0 {
		out = append(out,
			&rbacv1.ClusterRole{TypeMeta: typeMeta("ClusterRole"), ObjectMeta: metav1.ObjectMeta{Name: manager}, Rules: clusterRules},
			&rbacv1.ClusterRoleBinding{TypeMeta: typeMeta("ClusterRoleBinding"), ObjectMeta: metav1.ObjectMeta{Name: manager},
				RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: manager}, Subjects: []rbacv1.Subject{subject}})
	}
	if len(o.Namespaces) > 0 && len(p.Namespaced) > 0 {
		for _, ns := range slices.Sorted(slices.Values(o.Namespaces)) {
			out = append(out, roleAndBinding(manager, ns, p.Namespaced, subject)...)
		}
	}
	if o.LeaderElection {
		out = append(out, roleAndBinding(o.Name+"-leader-election", o.Namespace, LeaderElectionRules(), subject)...)
	}
	if o.Sharding {
		out = append(out, roleAndBinding(o.Name+"-shard", o.Namespace, ShardRules(), subject)...)
	}
	return out, nil
}

func roleAndBinding(name, namespace string, rules []rbacv1.PolicyRule, subject rbacv1.Subject) []client.Object {
	meta := metav1.ObjectMeta{Namespace: namespace, Name: name}
	return []client.Object{
		&rbacv1.Role{TypeMeta: typeMeta("Role"), ObjectMeta: meta, Rules: rules},
		&rbacv1.RoleBinding{TypeMeta: typeMeta("RoleBinding"), ObjectMeta: meta,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name}, Subjects: []rbacv1.Subject{subject}},
	}
}

func typeMeta(kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: rbacv1.SchemeGroupVersion.String(), Kind: kind}
}

func (o ManifestOptions) check() error {
	var errs []error
	for _, f := range []struct{ field, value string }{
		{"Name", o.Name}, {"ServiceAccount", o.ServiceAccount}, {"Namespace", o.Namespace},
	} {
		if f.value == "" {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "rbac.ManifestOptions."+f.field, "is required"))
		} else if msgs := validation.IsDNS1123Subdomain(f.value); len(msgs) > 0 {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "rbac.ManifestOptions."+f.field, "%q is not a name: %v", f.value, msgs))
		}
	}
	return errors.Join(errs...)
}
