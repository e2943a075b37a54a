package v1alpha1

// TLS says whether and how a connection to another system (an object
// store, a database, a directory) uses TLS. Unset on a connection means
// plain text.
type TLS struct {
	// Verification says how the server's certificate is checked. Unset
	// means it is not checked, as with none.
	// +optional
	Verification *TLSVerification `json:"verification,omitempty"`
}

// TLSVerification is exactly one way of checking a server's certificate.
//
// +kubebuilder:validation:XValidation:rule="has(self.none) != has(self.server)",message="set exactly one of none and server"
type TLSVerification struct {
	// None encrypts without checking the server's certificate.
	// +optional
	None *NoVerification `json:"none,omitempty"`

	// Server checks the server's certificate against a CA.
	// +optional
	Server *ServerVerification `json:"server,omitempty"`
}

// NoVerification turns certificate checks off. It has no fields.
type NoVerification struct{}

// ServerVerification checks a server's certificate against a CA.
type ServerVerification struct {
	// CACert is where the CA comes from.
	CACert CACert `json:"caCert"`
}

// CACert is exactly one source of the CA a server's certificate is checked
// against.
//
// +kubebuilder:validation:XValidation:rule="has(self.webPki) != has(self.secretClass)",message="set exactly one of webPki and secretClass"
type CACert struct {
	// WebPKI trusts the CAs of the image's system trust store.
	// +optional
	WebPKI *WebPKI `json:"webPki,omitempty"`

	// SecretClass names a secret class whose CA certificate (ca.crt) is
	// mounted for the check.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	SecretClass *string `json:"secretClass,omitempty"`
}

// WebPKI selects the system trust store. It has no fields.
type WebPKI struct{}

// Enabled reports whether t asks for TLS at all; a nil t does not.
func (t *TLS) Enabled() bool { return t != nil }

// Verified reports whether the server's certificate is checked.
func (t *TLS) Verified() bool {
	return t != nil && t.Verification != nil && t.Verification.Server != nil
}

// CASecretClass returns the secret class of the CA the server is checked
// against, or "" when there is none (no TLS, no verification, or the web
// PKI).
func (t *TLS) CASecretClass() string {
	if !t.Verified() || t.Verification.Server.CACert.SecretClass == nil {
		return ""
	}
	return *t.Verification.Server.CACert.SecretClass
}
