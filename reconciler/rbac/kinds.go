package rbac

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Resolver finds the resource of a kind and whether it is namespaced:
// through Mapper when it is set and knows the kind (a manager's, or one
// built from the CRDs an operator ships), else from the kinds Kubernetes
// serves itself, taking any other kind for a namespaced one whose resource
// is its lower-case plural (what controller-gen generates for a CRD).
type Resolver struct {
	Mapper meta.RESTMapper
}

// Resource returns the resource of gvk and whether it is namespaced.
func (r Resolver) Resource(gvk schema.GroupVersionKind) (resource string, namespaced bool, err error) {
	if r.Mapper != nil {
		m, err := r.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		switch {
		case err == nil:
			return m.Resource.Resource, m.Scope.Name() == meta.RESTScopeNameNamespace, nil
		case !meta.IsNoMatchError(err):
			return "", false, fmt.Errorf("finding the resource of %s: %w", gvk, err)
		}
	}
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return plural.Resource, !clusterScoped[gvk.GroupKind()], nil
}

// clusterScoped are the cluster-scoped kinds Kubernetes serves itself.
var clusterScoped = map[schema.GroupKind]bool{
	{Kind: "Namespace"}:        true,
	{Kind: "Node"}:             true,
	{Kind: "PersistentVolume"}: true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                         true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                  true,
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:                 true,
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:                             true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   true,
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:                                      true,
	{Group: "storage.k8s.io", Kind: "CSINode"}:                                        true,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:                               true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                      true,
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}:                 true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                       true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       true,
}
