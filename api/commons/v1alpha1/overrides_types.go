package v1alpha1

import "k8s.io/apimachinery/pkg/runtime"

// OverridesSpec is the escape hatch for what opkit does not model: config
// file entries, environment variables, command-line arguments and a patch to
// the pod template. Role-group overrides win over role overrides, which win
// over what the product contributes.
type OverridesSpec struct {
	// ConfigOverrides maps a config file name to keys and values set in it.
	// +optional
	ConfigOverrides map[string]map[string]string `json:"configOverrides,omitempty"`

	// EnvOverrides sets environment variables of the main container.
	// +optional
	EnvOverrides map[string]string `json:"envOverrides,omitempty"`

	// CliOverrides replaces the extra command-line arguments of the main
	// container.
	// +optional
	CliOverrides []string `json:"cliOverrides,omitempty"`

	// PodOverrides is a pod template (core/v1 PodTemplateSpec) merged over
	// the built one with strategic merge patch. It is schema-free; opkit
	// decodes it and reports a layer it cannot decode.
	// +optional
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	PodOverrides *runtime.RawExtension `json:"podOverrides,omitempty"`
}
