package v1alpha1

// Volume asks the secret operator for a secret of a class, delivered as
// files in a volume: TLS certificates, a Kerberos keytab or credentials,
// depending on what the class provides.
type Volume struct {
	// SecretClass names the class that provides the secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	SecretClass string `json:"secretClass"`

	// Scope says which identities the secret is issued for. Unset means the
	// default of the consumer (see module secretvolume).
	// +optional
	Scope *Scope `json:"scope,omitempty"`
}

// Scope says which identities a secret is issued for: a certificate's
// subject alternative names, a keytab's principals.
type Scope struct {
	// Pod issues the secret for the pod's own DNS names.
	// +optional
	Pod bool `json:"pod,omitempty"`

	// Node issues the secret for the node the pod runs on.
	// +optional
	Node bool `json:"node,omitempty"`

	// Services issues the secret for these Services of the pod's
	// namespace, by name.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=63
	Services []string `json:"services,omitempty"`

	// ListenerVolumes issues the secret for the addresses of these
	// listener volumes of the pod, by volume name.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=63
	ListenerVolumes []string `json:"listenerVolumes,omitempty"`
}
