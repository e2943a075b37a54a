package database

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/secretvolume"
)

// Defaults of Options.
const (
	// DefaultCAVolume names the volume of the database's CA.
	DefaultCAVolume = "database-ca"
	// DefaultTruststorePassword protects the PKCS#12 trust store MySQL's
	// driver reads.
	DefaultTruststorePassword = "changeit"
	// DefaultUsernameEnv and DefaultPasswordEnv are the variables the
	// credentials are read into.
	DefaultUsernameEnv = "DB_USERNAME"
	DefaultPasswordEnv = "DB_PASSWORD"
)

// Options tunes Wire. The zero value uses the defaults.
type Options struct {
	// CAVolume names the CA volume. Empty means DefaultCAVolume.
	CAVolume string
	// TruststorePassword protects MySQL's trust store. Empty means
	// DefaultTruststorePassword.
	TruststorePassword string
	// UsernameEnv and PasswordEnv name the credential variables. Empty
	// means DefaultUsernameEnv and DefaultPasswordEnv.
	UsernameEnv, PasswordEnv string
}

// JDBC is how a JVM product connects.
type JDBC struct {
	// URL is the JDBC URL, TLS parameters included.
	URL string
	// Driver is the driver's class name.
	Driver string
}

// Wiring is what a product writes for its database.
type Wiring struct {
	// JDBC is the JDBC URL and driver class.
	JDBC JDBC
	// Env reads the user name and password from the credentials Secret
	// (secretKeyRef); none for Derby.
	Env []corev1.EnvVar
	// CredentialsSecret names the Secret, for the product's dependency
	// check; empty for Derby.
	CredentialsSecret string
	// CredentialsField is where CredentialsSecret was written.
	CredentialsField string
}

// Wire checks conn (written at field) and returns the product's wiring,
// adding the CA volume to set when TLS checks the server against a secret
// class. Every problem is an error of class failure.ErrInvalid naming its
// field, joined.
func Wire(conn databasev1alpha1.Connection, field string, set *secretvolume.Set, opts Options) (Wiring, error) {
	if err := Validate(conn, field); err != nil {
		return Wiring{}, err
	}
	if conn.Engine == databasev1alpha1.Derby {
		return Wiring{JDBC: JDBC{URL: "jdbc:derby:" + conn.Database + ";create=true", Driver: "org.apache.derby.jdbc.EmbeddedDriver"}}, nil
	}
	w := Wiring{
		CredentialsSecret: conn.CredentialsSecret,
		CredentialsField:  field + ".credentialsSecret",
		Env: []corev1.EnvVar{
			secretEnv(or(opts.UsernameEnv, DefaultUsernameEnv), conn.CredentialsSecret, databasev1alpha1.CredentialsUsernameKey),
			secretEnv(or(opts.PasswordEnv, DefaultPasswordEnv), conn.CredentialsSecret, databasev1alpha1.CredentialsPasswordKey),
		},
	}
	caFile := ""
	if class := conn.TLS.CASecretClass(); class != "" {
		vol := or(opts.CAVolume, DefaultCAVolume)
		req := secretvolume.TLS(vol, class, nil).From(failure.AuthorUser, field+".tls.verification.server.caCert.secretClass")
		caFile = set.File(vol, secretvolume.CACertFile)
		if conn.Engine == databasev1alpha1.MySQL {
			// Connector/J reads a trust store, not a PEM certificate.
			req = req.WithPKCS12Password(or(opts.TruststorePassword, DefaultTruststorePassword))
			caFile = set.File(vol, secretvolume.TruststoreFile)
		}
		set.Add(req)
	}
	w.JDBC = jdbcOf(conn, caFile, opts)
	return w, nil
}

// Port returns the connection's port: the one stated or the engine's
// default (0 for Derby).
func Port(conn databasev1alpha1.Connection) int32 { return port(conn) }

func port(conn databasev1alpha1.Connection) int32 {
	if conn.Port != nil {
		return *conn.Port
	}
	switch conn.Engine {
	case databasev1alpha1.PostgreSQL:
		return 5432
	case databasev1alpha1.MySQL, databasev1alpha1.MariaDB:
		return 3306
	}
	return 0
}

func secretEnv(name, secret, key string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key}}}
}

func or(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// engineList names the engines for messages.
func engineList() string {
	var names []string
	for _, e := range databasev1alpha1.Engines() {
		names = append(names, string(e))
	}
	return strings.Join(names, ", ")
}
