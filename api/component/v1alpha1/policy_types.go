package v1alpha1

// The policy values a PolicySpec accepts. They are the object engine's
// policy names (package github.com/opkit-dev/opkit/apply).
const (
	// AdoptionPolicyNever refuses every existing object not created by the
	// component.
	AdoptionPolicyNever = "never"
	// AdoptionPolicyIfUnowned takes over objects nobody owns.
	AdoptionPolicyIfUnowned = "if-unowned"
	// AdoptionPolicyAlways takes over any existing object.
	AdoptionPolicyAlways = "always"

	// UpdatePolicyReplace writes the whole object.
	UpdatePolicyReplace = "replace"
	// UpdatePolicySSAMerge applies server-side, leaving others' fields.
	UpdatePolicySSAMerge = "ssa-merge"
	// UpdatePolicySSAOverride applies server-side, taking over the fields
	// of client-side writers.
	UpdatePolicySSAOverride = "ssa-override"
	// UpdatePolicyRecreate deletes the object and creates it again.
	UpdatePolicyRecreate = "recreate"

	// DeletePolicyDelete deletes objects.
	DeletePolicyDelete = "delete"
	// DeletePolicyOrphan never deletes objects.
	DeletePolicyOrphan = "orphan"
	// DeletePolicyOrphanOnApply keeps objects that leave the set and
	// deletes them with the component.
	DeletePolicyOrphanOnApply = "orphan-on-apply"
	// DeletePolicyOrphanOnDelete deletes objects that leave the set and
	// keeps them when the component is deleted.
	DeletePolicyOrphanOnDelete = "orphan-on-delete"

	// MissingNamespacesPolicyCreate creates missing namespaces.
	MissingNamespacesPolicyCreate = "create"
	// MissingNamespacesPolicyDoNotCreate waits for someone else to create
	// them.
	MissingNamespacesPolicyDoNotCreate = "do-not-create"
)

// PolicySpec overrides the operator's policies for the objects of one
// component. Empty fields keep the operator's defaults; an annotation on an
// object overrides both.
type PolicySpec struct {
	// AdoptionPolicy says whether an existing object not created by this
	// component may be taken over: never, if-unowned or always.
	// +optional
	// +kubebuilder:validation:Enum=never;if-unowned;always
	AdoptionPolicy string `json:"adoptionPolicy,omitempty"`
	// UpdatePolicy says how an existing object is written: replace,
	// ssa-merge, ssa-override or recreate.
	// +optional
	// +kubebuilder:validation:Enum=replace;ssa-merge;ssa-override;recreate
	UpdatePolicy string `json:"updatePolicy,omitempty"`
	// DeletePolicy says whether objects are deleted when they leave the
	// set or the component is deleted: delete, orphan, orphan-on-apply or
	// orphan-on-delete.
	// +optional
	// +kubebuilder:validation:Enum=delete;orphan;orphan-on-apply;orphan-on-delete
	DeletePolicy string `json:"deletePolicy,omitempty"`
	// MissingNamespacesPolicy says whether a missing namespace is created:
	// create or do-not-create.
	// +optional
	// +kubebuilder:validation:Enum=create;do-not-create
	MissingNamespacesPolicy string `json:"missingNamespacesPolicy,omitempty"`
}

// GetAdoptionPolicy returns AdoptionPolicy.
func (s *PolicySpec) GetAdoptionPolicy() string { return s.AdoptionPolicy }

// GetUpdatePolicy returns UpdatePolicy.
func (s *PolicySpec) GetUpdatePolicy() string { return s.UpdatePolicy }

// GetDeletePolicy returns DeletePolicy.
func (s *PolicySpec) GetDeletePolicy() string { return s.DeletePolicy }

// GetMissingNamespacesPolicy returns MissingNamespacesPolicy.
func (s *PolicySpec) GetMissingNamespacesPolicy() string { return s.MissingNamespacesPolicy }

// ManagedType names an API type whose instances, when they exist and are
// not the component's own, block the component's deletion.
type ManagedType struct {
	// Group is the API group, empty for the core group.
	// +optional
	Group string `json:"group,omitempty"`
	// Kind is the kind, or "*" for every kind of the group.
	// +kubebuilder:validation:MinLength=1
	Kind string `json:"kind"`
}

// TypeSpec lists further managed types: types the component's objects
// serve (through a controller it deploys, say) without a
// CustomResourceDefinition of its own.
type TypeSpec struct {
	// AdditionalManagedTypes are types whose foreign instances block the
	// component's deletion, as the instances of its own CRDs do.
	// +optional
	// +listType=atomic
	AdditionalManagedTypes []ManagedType `json:"additionalManagedTypes,omitempty"`
}

// GetAdditionalManagedTypes returns AdditionalManagedTypes.
func (s *TypeSpec) GetAdditionalManagedTypes() []ManagedType { return s.AdditionalManagedTypes }
