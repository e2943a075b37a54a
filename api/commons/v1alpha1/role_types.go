package v1alpha1

// RoleSpec is one role of a cluster: its configuration, overrides and role
// groups. What the role is (ports, command, containers) is declared by the
// product, not written here.
type RoleSpec struct {
	// Config applies to every role group of the role, beneath the group's own.
	// +optional
	Config *RoleGroupConfigSpec `json:"config,omitempty"`

	// RoleConfig holds settings that exist once per role, not per group.
	// +optional
	RoleConfig *RoleConfigSpec `json:"roleConfig,omitempty"`

	// OverridesSpec applies to every role group of the role, beneath the
	// group's own overrides.
	OverridesSpec `json:",inline"`

	// RoleGroups maps a role-group name to its spec. Each name becomes part of
	// resource names and a label value, so it must be a lowercase RFC 1123
	// label.
	// +optional
	// +kubebuilder:validation:MaxProperties=256
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 63 && k.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))",message="role group names must be lowercase RFC 1123 labels: at most 63 characters, a-z, 0-9 and '-', starting and ending with a letter or digit"
	RoleGroups map[string]RoleGroupSpec `json:"roleGroups,omitempty"`
}

// RoleConfigSpec holds role-level settings.
type RoleConfigSpec struct {
	// PodDisruptionBudget configures the role's PodDisruptionBudget, which
	// spans all its role groups.
	// +optional
	PodDisruptionBudget *PodDisruptionBudgetSpec `json:"podDisruptionBudget,omitempty"`
}

// PodDisruptionBudgetSpec configures a role's PodDisruptionBudget.
type PodDisruptionBudgetSpec struct {
	// Enabled creates the PodDisruptionBudget. Unset means enabled.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// MaxUnavailable is how many of the role's pods may be disrupted at once.
	// Unset means 1.
	// +optional
	// +kubebuilder:validation:Minimum=0
	MaxUnavailable *int32 `json:"maxUnavailable,omitempty"`
}

// RoleGroupSpec is one group of identically configured replicas of a role,
// run as one StatefulSet.
type RoleGroupSpec struct {
	// Replicas is the number of pods.
	// +optional
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	Replicas *int32 `json:"replicas,omitempty"`

	// Config is the group's configuration, over the role's.
	// +optional
	Config *RoleGroupConfigSpec `json:"config,omitempty"`

	// OverridesSpec is the group's overrides, over the role's.
	OverridesSpec `json:",inline"`
}
