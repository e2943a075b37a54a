package builders

import (
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ServiceAccount builds the ServiceAccount a cluster's pods run as. name is
// normally ServiceAccountName(kind, scope.Cluster).
func ServiceAccount(scope Scope, name string) *corev1.ServiceAccount {
	return &corev1.ServiceAccount{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
		ObjectMeta: scope.objectMeta(name),
	}
}

// Role builds a namespaced Role granting rules, named like the
// ServiceAccount it is bound to.
func Role(scope Scope, name string, rules []rbacv1.PolicyRule) *rbacv1.Role {
	role := &rbacv1.Role{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
		ObjectMeta: scope.objectMeta(name),
	}
	for i := range rules {
		role.Rules = append(role.Rules, *rules[i].DeepCopy())
	}
	return role
}

// RoleBinding builds a RoleBinding, called name, that binds the Role called
// name to the ServiceAccount called name in the scope's namespace.
func RoleBinding(scope Scope, name string) *rbacv1.RoleBinding {
	return &rbacv1.RoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
		ObjectMeta: scope.objectMeta(name),
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects: []rbacv1.Subject{{
			Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: scope.Namespace,
		}},
	}
}
