package v1alpha1

// ClassReference is how a product uses an AuthenticationClass: its name
// and the options that differ per product.
type ClassReference struct {
	// AuthenticationClass names the class.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	AuthenticationClass string `json:"authenticationClass"`

	// OIDC holds this product's client of an OIDC class. Required when
	// the class is OIDC, ignored otherwise.
	// +optional
	OIDC *OIDCClientOptions `json:"oidc,omitempty"`
}

// OIDCClientOptions is a product's client of an OIDC provider.
type OIDCClientOptions struct {
	// ClientCredentialsSecret names a Secret in the product's namespace
	// with the keys clientId and clientSecret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ClientCredentialsSecret string `json:"clientCredentialsSecret"`

	// ExtraScopes are requested beside the class's scopes.
	// +optional
	// +listType=set
	ExtraScopes []string `json:"extraScopes,omitempty"`
}

// Keys of an OIDC client's credentials Secret.
const (
	// ClientIDKey holds the client ID.
	ClientIDKey = "clientId"
	// ClientSecretKey holds the client secret.
	ClientSecretKey = "clientSecret"
)
