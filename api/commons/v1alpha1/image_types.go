package v1alpha1

import corev1 "k8s.io/api/core/v1"

// ImageSpec selects a product image. Each field folds separately over the
// cluster's spec, the role's declared image and the operator's defaults.
type ImageSpec struct {
	// Custom is a complete image reference, used verbatim.
	// +optional
	Custom string `json:"custom,omitempty"`

	// Repo is the registry and path the product image lives under, e.g.
	// "quay.io/opkit".
	// +optional
	Repo string `json:"repo,omitempty"`

	// ProductVersion is the product's version, the first part of the tag.
	// +optional
	ProductVersion string `json:"productVersion,omitempty"`

	// PlatformVersion is the version of the image platform the product image
	// was built on, appended to the tag.
	// +optional
	PlatformVersion string `json:"platformVersion,omitempty"`

	// PullPolicy is the image pull policy. Unset means IfNotPresent.
	// +optional
	// +kubebuilder:validation:Enum=Always;Never;IfNotPresent
	PullPolicy *corev1.PullPolicy `json:"pullPolicy,omitempty"`

	// PullSecretName names a docker-registry Secret added to every pod's
	// imagePullSecrets, whichever way the image is chosen.
	// +optional
	PullSecretName string `json:"pullSecretName,omitempty"`
}
