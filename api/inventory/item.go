package inventory

import (
	"cmp"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Phase is where an item is in its life cycle.
type Phase string

// The phases of an item. An item is written to JSON without its phase when
// it is Ready, the phase of almost every item.
const (
	PhaseScheduledForApplication Phase = "ScheduledForApplication"
	PhaseCreating                Phase = "Creating"
	PhaseUpdating                Phase = "Updating"
	PhaseReady                   Phase = "Ready"
	PhaseScheduledForDeletion    Phase = "ScheduledForDeletion"
	PhaseScheduledForCompletion  Phase = "ScheduledForCompletion"
	PhaseDeleting                Phase = "Deleting"
	PhaseCompleting              Phase = "Completing"
	PhaseCompleted               Phase = "Completed"
)

// StatusCurrent is the readiness (a kstatus status) of a ready object; an
// item is written to JSON without its status when it is current.
const StatusCurrent = "Current"

// TypeRef names an API type. For the types an APIService serves, Kind is
// "*": every kind of the group and version; for the type a
// CustomResourceDefinition defines, Version is "*".
type TypeRef struct {
	// Group is the API group, empty for the core group.
	// +optional
	Group string `json:"g,omitempty"`
	// Version is the API version.
	Version string `json:"v"`
	// Kind is the kind, or "*".
	Kind string `json:"k"`
}

// Item records one object. The policies are stored only where they differ
// from the engine's defaults: an empty policy means the default of the
// engine reading the item.
type Item struct {
	// Group is the object's API group, empty for the core group.
	// +optional
	Group string `json:"g,omitempty"`
	// Version is the API version the object was last written with.
	Version string `json:"v"`
	// Kind is the object's kind.
	Kind string `json:"k"`
	// Namespace is empty for cluster-scoped objects.
	// +optional
	Namespace string `json:"ns,omitempty"`
	// Name is the object's name.
	Name string `json:"n"`

	// AdoptionPolicy is the object's adoption policy, when not the default.
	// +optional
	AdoptionPolicy string `json:"ap,omitempty"`
	// ReconcilePolicy is the object's reconcile policy, when not the default.
	// +optional
	ReconcilePolicy string `json:"rp,omitempty"`
	// UpdatePolicy is the object's update policy, when not the default.
	// +optional
	UpdatePolicy string `json:"up,omitempty"`
	// DeletePolicy is the object's delete policy, when not the default.
	// +optional
	DeletePolicy string `json:"dp,omitempty"`
	// ApplyOrder is the object's apply wave.
	// +optional
	ApplyOrder int32 `json:"ao,omitempty"`
	// DeleteOrder is the object's delete wave.
	// +optional
	DeleteOrder int32 `json:"do,omitempty"`
	// PurgeOrder, when set, is the apply wave at whose end the object is
	// deleted again.
	// +optional
	PurgeOrder *int32 `json:"po,omitempty"`
	// ManagedTypes are the types a CustomResourceDefinition or APIService
	// of the set serves.
	// +optional
	ManagedTypes []TypeRef `json:"mt,omitempty"`

	// Digest is the (shortened) digest of the desired object last written.
	// +optional
	Digest string `json:"d,omitempty"`
	// Phase is the item's phase; empty means Ready.
	// +optional
	Phase Phase `json:"ph,omitempty"`
	// Status is the readiness last observed (a kstatus status); empty means
	// Current.
	// +optional
	Status string `json:"st,omitempty"`
	// ResourceVersion is the live object's resourceVersion after the
	// engine's write of the recorded desired state (Digest); recorded only
	// for kinds without a generation. A later write of the same state (a
	// revert of someone's edit) leaves it as it is.
	// +optional
	ResourceVersion string `json:"rv,omitempty"`
	// Generation is the live object's generation after the engine's write
	// of the recorded desired state, for kinds that have one.
	// +optional
	Generation int64 `json:"gn,omitempty"`
	// AppliedAt is when the object was last written, in Unix seconds;
	// recorded only when the engine reapplies periodically.
	// +optional
	AppliedAt int64 `json:"t,omitempty"`
}

// Ref returns the item's object reference.
func (i *Item) Ref() Ref {
	return Ref{Group: i.Group, Version: i.Version, Kind: i.Kind, Namespace: i.Namespace, Name: i.Name}
}

// Key returns the item's identity.
func (i *Item) Key() Key {
	return Key{Group: i.Group, Kind: i.Kind, Namespace: i.Namespace, Name: i.Name}
}

// EffectivePhase returns the phase, Ready when empty.
func (i *Item) EffectivePhase() Phase {
	if i.Phase == "" {
		return PhaseReady
	}
	return i.Phase
}

// EffectiveStatus returns the status, Current when empty.
func (i *Item) EffectiveStatus() string {
	if i.Status == "" {
		return StatusCurrent
	}
	return i.Status
}

// SetPhase sets the phase, storing Ready as empty.
func (i *Item) SetPhase(p Phase) {
	if p == PhaseReady {
		p = ""
	}
	i.Phase = p
}

// SetStatus sets the status, storing Current as empty.
func (i *Item) SetStatus(s string) {
	if s == StatusCurrent {
		s = ""
	}
	i.Status = s
}

// Ref is a structured reference to an object: its type and its name.
//
// +kubebuilder:object:generate=false
type Ref struct {
	// Group is the API group, empty for the core group.
	Group string
	// Version is the API version.
	Version string
	// Kind is the object's kind.
	Kind string
	// Namespace is empty for cluster-scoped objects.
	Namespace string
	// Name is the object's name.
	Name string
}

// GroupVersionKind returns the reference's type.
func (r Ref) GroupVersionKind() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
}

// Key returns the reference's identity (the version is not part of it).
func (r Ref) Key() Key {
	return Key{Group: r.Group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
}

// String returns "Kind[.group] [namespace/]name", for messages.
func (r Ref) String() string { return r.Key().String() }

// Key is an object's identity: group, kind, namespace and name. The version
// is not part of it: one object is served under several versions.
//
// +kubebuilder:object:generate=false
type Key struct {
	// Group is the API group, empty for the core group.
	Group string
	// Kind is the object's kind.
	Kind string
	// Namespace is empty for cluster-scoped objects.
	Namespace string
	// Name is the object's name.
	Name string
}

// KeyOf returns the identity of the object of kind gk named namespace/name.
func KeyOf(gk schema.GroupKind, namespace, name string) Key {
	return Key{Group: gk.Group, Kind: gk.Kind, Namespace: namespace, Name: name}
}

// GroupKind returns the key's group and kind.
func (k Key) GroupKind() schema.GroupKind { return schema.GroupKind{Group: k.Group, Kind: k.Kind} }

// String returns "Kind[.group] [namespace/]name", for messages.
func (k Key) String() string {
	if k.Namespace == "" {
		return fmt.Sprintf("%s %s", k.GroupKind(), k.Name)
	}
	return fmt.Sprintf("%s %s/%s", k.GroupKind(), k.Namespace, k.Name)
}

// Compare orders keys by group, kind, namespace and name.
func (k Key) Compare(o Key) int {
	return cmp.Or(
		strings.Compare(k.Group, o.Group),
		strings.Compare(k.Kind, o.Kind),
		strings.Compare(k.Namespace, o.Namespace),
		strings.Compare(k.Name, o.Name),
	)
}
