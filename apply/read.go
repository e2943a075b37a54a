package apply

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// readMode says how much of a live object a read needs.
type readMode int

const (
	// readLite reads metadata only for the kinds whose drift and readiness
	// metadata decides, and the full object otherwise.
	readLite readMode = iota
	// readFull always reads the full object.
	readFull
)

// metadataKinds are kinds without a status and without immutable-field
// rules: their metadata (digest and owner annotations, labels,
// resourceVersion) is all drift detection needs, and they are ready once
// they exist. A cached client serves them from a metadata-only informer.
var metadataKinds = map[schema.GroupKind]bool{
	{Kind: "ConfigMap"}:      true,
	{Kind: "Secret"}:         true,
	{Kind: "ServiceAccount"}: true,
	{Kind: "LimitRange"}:     true,
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:                              true,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:                       true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                       true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                             true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                 true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                              true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                    true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}: true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:   true,
}

// metadataOnly reports whether a pass may read d's kind as metadata.
func metadataOnly(gk schema.GroupKind, hint statusHint) bool {
	return metadataKinds[gk] && hint.empty()
}

// get reads the live object of ref through rd, nil when it does not
// exist: a *metav1.PartialObjectMetadata for metadata kinds in readLite
// mode, an *unstructured.Unstructured otherwise. Errors are classified.
func (r *Engine) get(ctx context.Context, rd client.Reader, ref inventory.Ref, mode readMode) (client.Object, error) {
	return r.getWith(ctx, rd, ref, mode == readLite && metadataKinds[ref.GroupVersionKind().GroupKind()])
}

func (r *Engine) getWith(ctx context.Context, rd client.Reader, ref inventory.Ref, lite bool) (client.Object, error) {
	var live client.Object
	gvk := ref.GroupVersionKind()
	switch {
	case lite:
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(gvk)
		live = m
	case r.client.Scheme().Recognizes(gvk):
		// Typed where the scheme knows the kind: a manager caches typed
		// objects far more compactly than unstructured ones.
		return r.getTyped(ctx, rd, ref)
	default:
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(ref.GroupVersionKind())
		live = u
	}
	if err := rd.Get(ctx, client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}, live); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, apierr.Classify(fmt.Errorf("reading %s: %w", ref, err))
	}
	if m, ok := live.(*metav1.PartialObjectMetadata); ok {
		// A reader may return metadata without the type; set it back.
		m.SetGroupVersionKind(ref.GroupVersionKind())
	}
	return live, nil
}

// full returns live as an unstructured object; metadata becomes an object
// holding only metadata, which is all a full update of a metadata kind
// needs from the live side.
func full(live client.Object) (*unstructured.Unstructured, error) {
	switch l := live.(type) {
	case *unstructured.Unstructured:
		return l, nil
	case *metav1.PartialObjectMetadata:
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&l.ObjectMeta)
		if err != nil {
			return nil, fmt.Errorf("converting metadata: %w", err)
		}
		u := &unstructured.Unstructured{Object: map[string]any{"metadata": m}}
		u.SetGroupVersionKind(l.GroupVersionKind())
		return u, nil
	}
	return nil, fmt.Errorf("unexpected live object type %T", live)
}

// getTyped reads ref as the scheme's typed object and returns it in
// unstructured form, nil when it does not exist.
func (r *Engine) getTyped(ctx context.Context, rd client.Reader, ref inventory.Ref) (client.Object, error) {
	gvk := ref.GroupVersionKind()
	obj, err := r.client.Scheme().New(gvk)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ref, err)
	}
	typed, ok := obj.(client.Object)
	if !ok {
		return nil, fmt.Errorf("reading %s: %T is not an object", ref, obj)
	}
	if err := rd.Get(ctx, client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}, typed); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, apierr.Classify(fmt.Errorf("reading %s: %w", ref, err))
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return nil, fmt.Errorf("converting %s: %w", ref, err)
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(gvk)
	return u, nil
}
