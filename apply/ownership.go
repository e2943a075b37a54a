package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opkit-dev/opkit/api/inventory"
)

// ownerLabelValue hashes an owner id into a label-safe value (owner ids
// such as "namespace/name" contain characters labels do not allow, and may
// exceed 63 characters).
func ownerLabelValue(ownerID string) string {
	sum := sha256.Sum256([]byte(ownerID))
	return hex.EncodeToString(sum[:20])
}

// OwnerLabelKey returns the key of the label that marks every object the
// engine manages, whatever its owner: "<name>/owner-id".
func (r *Engine) OwnerLabelKey() string { return r.prefix + AnnotationOwnerID }

// OwnerLabel returns the label key and value that mark the objects of one
// owner, for listing them.
func (r *Engine) OwnerLabel(ownerID string) (key, value string) {
	return OwnerLabel(r.name, ownerID)
}

// OwnerLabel returns the label key and value with which the engine named
// name marks the objects of one owner, for listing or watching them
// without an engine at hand.
func OwnerLabel(name, ownerID string) (key, value string) {
	return name + "/" + AnnotationOwnerID, ownerLabelValue(ownerID)
}

// ownerOf returns the owner id of a live object: the annotation, or, when
// only the label survived, "ours" if its hash matches and an opaque foreign
// marker otherwise.
func (p *pass) ownerOf(live metav1.Object) string {
	if id := live.GetAnnotations()[p.r.prefix+AnnotationOwnerID]; id != "" {
		return id
	}
	if v := live.GetLabels()[p.r.prefix+AnnotationOwnerID]; v != "" {
		if v == p.ownerLabel {
			return p.owner.ID
		}
		return "(label " + v + ")"
	}
	return ""
}

// mayTouch reports whether the adoption policy allows writing or deleting
// live, and returns an *OwnershipError otherwise.
func (p *pass) mayTouch(live metav1.Object, policy AdoptionPolicy, ref inventory.Ref) error {
	owner := p.ownerOf(live)
	switch {
	case owner == p.owner.ID:
		return nil
	case owner == "" && policy != AdoptionPolicyNever:
		return nil
	case policy == AdoptionPolicyAlways:
		return nil
	}
	return &OwnershipError{Object: ref, Owner: owner, Policy: policy}
}

// stamp writes the owner id and digest onto the object to be sent.
func (p *pass) stamp(u metav1.Object, digest string) {
	labels := u.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[p.r.prefix+AnnotationOwnerID] = p.ownerLabel
	u.SetLabels(labels)
	ann := u.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann[p.r.prefix+AnnotationOwnerID] = p.owner.ID
	ann[p.r.prefix+AnnotationDigest] = digest
	u.SetAnnotations(ann)
}

// desiredDigest is the digest recorded for d: the object's own digest,
// combined with the component digest or frozen, depending on the reconcile
// policy.
func (r *Engine) desiredDigest(d *desired, owner Owner) (string, error) {
	if d.settings.reconcile == ReconcilePolicyOnce {
		return "once", nil
	}
	var (
		dg  string
		err error
	)
	if u, ok := d.obj.(*unstructured.Unstructured); ok {
		dg, err = Digest(u.Object, r.prefix+AnnotationOwnerID)
	} else {
		// A typed object encodes canonically as it is (struct fields in a
		// fixed order, map keys sorted), several times faster than its
		// unstructured form; the private copy holds no server-filled
		// metadata and no owner label.
		var b []byte
		if b, err = json.Marshal(d.obj); err == nil {
			dg = shortHash(b)
		}
	}
	if err != nil {
		return "", r.invalid(d.ref, 0, "", "%v", err)
	}
	if d.settings.reconcile == ReconcilePolicyOnObjectOrComponentChange {
		dg = shortHash([]byte(dg + "@" + owner.ComponentDigest))
	}
	return dg, nil
}
