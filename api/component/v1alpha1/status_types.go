package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/inventory"
)

// State is where a component is in its life cycle, as the reconciler last
// saw it.
//
// +kubebuilder:validation:Enum=Ready;Pending;Processing;DeletionPending;Deleting;Error
type State string

// The states of a component.
const (
	// StateReady: every dependent object is applied and ready.
	StateReady State = "Ready"
	// StatePending: nothing is being done right now: the component was just
	// seen, is suspended, or waits to retry a transient failure.
	StatePending State = "Pending"
	// StateProcessing: the dependent objects are applied and the reconciler
	// waits for them to become ready.
	StateProcessing State = "Processing"
	// StateDeletionPending: the component is being deleted, but something
	// blocks or delays the deletion of its dependent objects.
	StateDeletionPending State = "DeletionPending"
	// StateDeleting: the dependent objects are being deleted.
	StateDeleting State = "Deleting"
	// StateError: the last pass failed, the dependent objects did not
	// become ready within the timeout, or the render asks for a change the
	// API server does not allow (reason ImmutableFieldIgnored).
	StateError State = "Error"
)

// ConditionReady is the type of the condition the reconciler maintains: True
// in StateReady, False otherwise, with one of the Reason constants.
const ConditionReady = "Ready"

// Reasons of the Ready condition and of the events recorded when the state
// changes.
const (
	// ReasonProcessing: the objects are applied; some are not ready yet.
	ReasonProcessing = "Processing"
	// ReasonRestarting: the desired state changed while the previous one
	// was still being rolled out; a new processing cycle starts.
	ReasonRestarting = "Restarting"
	// ReasonRetrying: a transient failure (a conflict, a rate limit, an
	// object of another owner in the way); the pass is retried.
	ReasonRetrying = "Retrying"
	// ReasonTimeout: the dependent objects did not become ready within the
	// component's timeout.
	ReasonTimeout = "Timeout"
	// ReasonSuspended: the component is suspended; nothing is applied.
	ReasonSuspended = "Suspended"
	// ReasonDeletionBlocked: the deletion waits for other finalizers or for
	// instances of managed types that are not the component's own.
	ReasonDeletionBlocked = "DeletionBlocked"
	// ReasonDeletionProcessing: the dependent objects are being deleted.
	ReasonDeletionProcessing = "DeletionProcessing"
	// ReasonDeletionRetrying: a transient failure during the deletion.
	ReasonDeletionRetrying = "DeletionRetrying"
	// ReasonReady: every dependent object is applied and ready.
	ReasonReady = "Ready"
	// ReasonError: the pass failed; the message says why.
	ReasonError = "Error"
	// ReasonImmutableFieldIgnored: every object is applied and ready, but
	// the render asks for a value of a field the API server does not let
	// change after creation (a StatefulSet's claim templates, say); the
	// object keeps its value. The message names the object, the field, both
	// values and what to do: revert the change, or delete the object so the
	// next pass creates it as asked.
	ReasonImmutableFieldIgnored = "ImmutableFieldIgnored"
)

// Status is the part of a component's status the reconciler owns. Embed it
// inline in the component's status type and return a pointer to it from
// GetStatus.
//
// A processing cycle is one attempt at bringing one desired state (one
// component digest) to readiness: it starts when the digest changes and
// ends when every dependent object is ready.
type Status struct {
	// ObservedGeneration is the generation the reconciler last saw.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// AppliedGeneration is the generation whose objects were last applied
	// and found ready.
	// +optional
	AppliedGeneration int64 `json:"appliedGeneration,omitempty"`
	// LastObservedAt is when the reconciler last changed this status.
	// +optional
	LastObservedAt *metav1.Time `json:"lastObservedAt,omitempty"`
	// LastAppliedAt is when the objects of a new desired state were last
	// found applied and ready.
	// +optional
	LastAppliedAt *metav1.Time `json:"lastAppliedAt,omitempty"`
	// ProcessingDigest is the component digest the current processing cycle
	// works towards; empty while the component is being deleted.
	// +optional
	ProcessingDigest string `json:"processingDigest,omitempty"`
	// ProcessingSince is when the current cycle started waiting for its
	// objects to become ready; the timeout counts from it. Empty once they
	// are.
	// +optional
	ProcessingSince *metav1.Time `json:"processingSince,omitempty"`
	// LastProcessingDigest is the digest of the cycle whose objects were
	// last rendered and applied.
	// +optional
	LastProcessingDigest string `json:"lastProcessingDigest,omitempty"`
	// Revision counts the distinct desired states applied over the
	// component's life: 1 for the first, one more per change.
	// +optional
	Revision int64 `json:"revision,omitempty"`
	// Conditions hold the Ready condition.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// State is where the component is in its life cycle.
	// +optional
	State State `json:"state,omitempty"`
	// Inventory lists the dependent objects the reconciler manages.
	// +optional
	Inventory inventory.Inventory `json:"inventory,omitempty"`
}

// IsReady reports whether the component is in StateReady.
func (s *Status) IsReady() bool { return s.State == StateReady }

// ReadyCondition returns the Ready condition, nil when there is none.
func (s *Status) ReadyCondition() *metav1.Condition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == ConditionReady {
			return &s.Conditions[i]
		}
	}
	return nil
}
