package apply

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// TypeInfo identifies an API type. For managed types served by an
// APIService, Kind is "*": every kind of the group and version.
type TypeInfo struct {
	// Group is the API group, empty for the core group.
	Group string `json:"group"`
	// Version is the API version.
	Version string `json:"version"`
	// Kind is the kind, or "*".
	Kind string `json:"kind"`
}

// GroupVersionKind returns the type as a schema.GroupVersionKind.
func (t TypeInfo) GroupVersionKind() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: t.Group, Version: t.Version, Kind: t.Kind}
}

// NameInfo identifies an object of a type.
type NameInfo struct {
	// Namespace is empty for cluster-scoped objects.
	Namespace string `json:"namespace,omitempty"`
	// Name is the object's name.
	Name string `json:"name"`
}

// Phase is where an inventory item is in its life cycle.
type Phase string

// The phases of an inventory item.
const (
	PhaseScheduledForApplication Phase = "ScheduledForApplication"
	PhaseCreating                Phase = "Creating"
	PhaseUpdating                Phase = "Updating"
	PhaseReady                   Phase = "Ready"
	PhaseScheduledForDeletion    Phase = "ScheduledForDeletion"
	PhaseDeleting                Phase = "Deleting"
	PhaseCompleting              Phase = "Completing"
	PhaseCompleted               Phase = "Completed"
)

// InventoryItem records one object the reconciler manages. Items are plain
// data: the caller persists them between passes, typically in the status of
// its custom resource.
type InventoryItem struct {
	TypeInfo `json:",inline"`
	NameInfo `json:",inline"`

	// AdoptionPolicy, ReconcilePolicy, UpdatePolicy and DeletePolicy are the
	// effective policies of the object's last desired state.
	AdoptionPolicy  AdoptionPolicy  `json:"adoptionPolicy"`
	ReconcilePolicy ReconcilePolicy `json:"reconcilePolicy"`
	UpdatePolicy    UpdatePolicy    `json:"updatePolicy"`
	DeletePolicy    DeletePolicy    `json:"deletePolicy"`
	// ApplyOrder and DeleteOrder are the object's waves.
	ApplyOrder  int `json:"applyOrder"`
	DeleteOrder int `json:"deleteOrder"`
	// PurgeOrder, when set, is the apply wave at whose end the object is
	// deleted again.
	PurgeOrder *int `json:"purgeOrder,omitempty"`
	// ManagedTypes lists the types a CRD or APIService of the set serves.
	ManagedTypes []TypeInfo `json:"managedTypes,omitempty"`
	// Digest is the digest of the desired object last written.
	Digest string `json:"digest"`
	// Phase is the item's life-cycle phase.
	Phase Phase `json:"phase,omitempty"`
	// Status is the readiness last observed (a kstatus status).
	Status kstatus.Status `json:"status,omitempty"`
	// LastAppliedAt is when the object was last written.
	LastAppliedAt *metav1.Time `json:"lastAppliedAt,omitempty"`
	// UID, ResourceVersion and Generation are the live object's values
	// right after the reconciler's last write; a different live value means
	// someone else changed the object.
	UID             types.UID `json:"uid,omitempty"`
	ResourceVersion string    `json:"resourceVersion,omitempty"`
	Generation      int64     `json:"generation,omitempty"`
}

// Inventory is the list of objects a reconciler manages for one owner.
type Inventory []*InventoryItem

// GroupKind returns the item's group and kind.
func (i *InventoryItem) GroupKind() schema.GroupKind {
	return schema.GroupKind{Group: i.Group, Kind: i.Kind}
}

// String names the item as "Kind[.group] [namespace/]name".
func (i *InventoryItem) String() string {
	return objectName(i.GroupKind(), i.Namespace, i.Name)
}

func (i *InventoryItem) key() string {
	return itemKey(i.GroupKind(), i.Namespace, i.Name)
}

// Find returns the item for the object of the given group, kind, namespace
// and name, or nil. The version is not part of an object's identity.
func (inv Inventory) Find(gk schema.GroupKind, namespace, name string) *InventoryItem {
	key := itemKey(gk, namespace, name)
	for _, it := range inv {
		if it.key() == key {
			return it
		}
	}
	return nil
}

// Ready reports whether every item is ready or completed.
func (inv Inventory) Ready() bool {
	for _, it := range inv {
		if it.Phase != PhaseReady && it.Phase != PhaseCompleted {
			return false
		}
	}
	return true
}

func itemKey(gk schema.GroupKind, namespace, name string) string {
	return gk.String() + "|" + namespace + "|" + name
}

func objectName(gk schema.GroupKind, namespace, name string) string {
	if namespace == "" {
		return fmt.Sprintf("%s %s", gk.String(), name)
	}
	return fmt.Sprintf("%s %s/%s", gk.String(), namespace, name)
}
