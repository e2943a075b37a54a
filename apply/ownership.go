package apply

import (
	"crypto/sha256"
	"encoding/hex"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ownerLabelValue hashes an owner id into a label-safe value (owner ids
// such as "namespace/name" contain characters labels do not allow, and may
// exceed 63 characters).
func ownerLabelValue(ownerID string) string {
	sum := sha256.Sum256([]byte(ownerID))
	return hex.EncodeToString(sum[:20])
}

// OwnerLabelSelector returns the label key and value that mark the objects
// of this reconciler's owner, for listing them.
func (r *Reconciler) OwnerLabelSelector() (key, value string) {
	return r.prefix + AnnotationOwnerID, ownerLabelValue(r.ownerID)
}

// ownerOf returns the owner id of a live object: the annotation, or, when
// only the label survived, "ours" if its hash matches and an opaque foreign
// marker otherwise.
func (r *Reconciler) ownerOf(live *unstructured.Unstructured) string {
	if id := live.GetAnnotations()[r.prefix+AnnotationOwnerID]; id != "" {
		return id
	}
	if v := live.GetLabels()[r.prefix+AnnotationOwnerID]; v != "" {
		if v == ownerLabelValue(r.ownerID) {
			return r.ownerID
		}
		return "(label " + v + ")"
	}
	return ""
}

// mayTouch reports whether the adoption policy allows writing or deleting
// live, and returns an *OwnershipError otherwise.
func (r *Reconciler) mayTouch(live *unstructured.Unstructured, policy AdoptionPolicy, ref string) error {
	owner := r.ownerOf(live)
	switch {
	case owner == r.ownerID:
		return nil
	case owner == "" && policy != AdoptionPolicyNever:
		return nil
	case policy == AdoptionPolicyAlways:
		return nil
	}
	return &OwnershipError{Object: ref, Owner: owner, Policy: policy}
}

// stamp writes the owner id and digest onto the object to be sent.
func (r *Reconciler) stamp(u *unstructured.Unstructured, digest string) {
	labels := u.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[r.prefix+AnnotationOwnerID] = ownerLabelValue(r.ownerID)
	u.SetLabels(labels)
	ann := u.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann[r.prefix+AnnotationOwnerID] = r.ownerID
	ann[r.prefix+AnnotationDigest] = digest
	u.SetAnnotations(ann)
}

// desiredDigest is the digest recorded for d: the object's own digest,
// combined with the component digest or frozen, depending on the reconcile
// policy.
func (r *Reconciler) desiredDigest(d *desired) (string, error) {
	if d.settings.reconcile == ReconcilePolicyOnce {
		return "once", nil
	}
	dg, err := Digest(d.u.Object, r.prefix+AnnotationOwnerID)
	if err != nil {
		return "", &InvalidObjectError{Object: d.ref, Reason: err.Error()}
	}
	if d.settings.reconcile == ReconcilePolicyOnObjectOrComponentChange {
		dg += "@" + r.opts.ComponentDigest
	}
	return dg, nil
}
