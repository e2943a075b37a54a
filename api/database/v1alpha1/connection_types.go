package v1alpha1

import secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"

// Engine names a database engine.
//
// +kubebuilder:validation:Enum=postgresql;mysql;mariadb;derby
type Engine string

// The engines.
const (
	// PostgreSQL is PostgreSQL; default port 5432.
	PostgreSQL Engine = "postgresql"
	// MySQL is MySQL; default port 3306.
	MySQL Engine = "mysql"
	// MariaDB is MariaDB; default port 3306.
	MariaDB Engine = "mariadb"
	// Derby is an embedded Apache Derby database, for development: it runs
	// in the product's process, so it has no host, port or credentials.
	Derby Engine = "derby"
)

// Engines returns every engine, in the order of the constants.
func Engines() []Engine { return []Engine{PostgreSQL, MySQL, MariaDB, Derby} }

// Keys of the credentials Secret.
const (
	// CredentialsUsernameKey holds the user name.
	CredentialsUsernameKey = "username"
	// CredentialsPasswordKey holds the password.
	CredentialsPasswordKey = "password"
)

// Connection says how a product reaches its database.
//
// +kubebuilder:validation:XValidation:rule="self.engine == 'derby' || (has(self.host) && has(self.credentialsSecret))",message="host and credentialsSecret are required unless the engine is derby"
// +kubebuilder:validation:XValidation:rule="self.engine != 'derby' || (!has(self.host) && !has(self.port) && !has(self.tls))",message="an embedded derby database has no host, port or tls"
type Connection struct {
	// Engine is the database engine.
	Engine Engine `json:"engine"`

	// Host is the database server's DNS name or IP address.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Host string `json:"host,omitempty"`

	// Port is the database server's port. Unset means the engine's
	// default.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// Database is the database's name; for Derby, the directory it lives
	// in.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Database string `json:"database"`

	// CredentialsSecret names a Secret in the product's namespace with the
	// keys username and password.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	CredentialsSecret string `json:"credentialsSecret,omitempty"`

	// TLS encrypts the connection. Unset means plain text.
	// +optional
	TLS *secretclassv1alpha1.TLS `json:"tls,omitempty"`
}
