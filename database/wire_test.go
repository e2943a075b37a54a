package database_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/database"
	"github.com/opkit-dev/opkit/secretvolume"
)

var (
	noCheck = &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{None: &secretclassv1alpha1.NoVerification{}}}
	webPKI  = &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
		Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{WebPKI: &secretclassv1alpha1.WebPKI{}}}}}
	caClass = &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
		Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{SecretClass: ptr.To("db-tls")}}}}
)

func TestJDBC(t *testing.T) {
	server := func(e databasev1alpha1.Engine, tls *secretclassv1alpha1.TLS) databasev1alpha1.Connection {
		return databasev1alpha1.Connection{Engine: e, Host: "db.data", Database: "metastore", CredentialsSecret: "db", TLS: tls}
	}
	tests := []struct {
		name    string
		conn    databasev1alpha1.Connection
		want    database.JDBC
		volumes []string
	}{
		{"postgresql", server(databasev1alpha1.PostgreSQL, nil),
			database.JDBC{URL: "jdbc:postgresql://db.data:5432/metastore", Driver: "org.postgresql.Driver"}, nil},
		{"postgresql on its own port, encrypted unchecked", func() databasev1alpha1.Connection {
			c := server(databasev1alpha1.PostgreSQL, noCheck)
			c.Port = ptr.To[int32](6432)
			return c
		}(), database.JDBC{URL: "jdbc:postgresql://db.data:6432/metastore?ssl=true&sslmode=require", Driver: "org.postgresql.Driver"}, nil},
		{"postgresql checked against the web PKI", server(databasev1alpha1.PostgreSQL, webPKI),
			database.JDBC{URL: "jdbc:postgresql://db.data:5432/metastore?ssl=true&sslmode=verify-full&sslfactory=org.postgresql.ssl.DefaultJavaSSLFactory", Driver: "org.postgresql.Driver"}, nil},
		{"postgresql checked against a secret class", server(databasev1alpha1.PostgreSQL, caClass),
			database.JDBC{URL: "jdbc:postgresql://db.data:5432/metastore?ssl=true&sslmode=verify-full&sslrootcert=/opkit/secret/database-ca/ca.crt", Driver: "org.postgresql.Driver"},
			[]string{"database-ca=tls-pem"}},
		{"mysql", server(databasev1alpha1.MySQL, nil),
			database.JDBC{URL: "jdbc:mysql://db.data:3306/metastore", Driver: "com.mysql.cj.jdbc.Driver"}, nil},
		{"mysql checked against a secret class reads a trust store", server(databasev1alpha1.MySQL, caClass),
			database.JDBC{URL: "jdbc:mysql://db.data:3306/metastore?sslMode=VERIFY_IDENTITY&trustCertificateKeyStoreUrl=file:/opkit/secret/database-ca/truststore.p12&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=changeit", Driver: "com.mysql.cj.jdbc.Driver"},
			[]string{"database-ca=tls-p12"}},
		{"mariadb encrypted unchecked", server(databasev1alpha1.MariaDB, noCheck),
			database.JDBC{URL: "jdbc:mariadb://db.data:3306/metastore?sslMode=trust", Driver: "org.mariadb.jdbc.Driver"}, nil},
		{"mariadb checked against a secret class", server(databasev1alpha1.MariaDB, caClass),
			database.JDBC{URL: "jdbc:mariadb://db.data:3306/metastore?sslMode=verify-full&serverSslCert=/opkit/secret/database-ca/ca.crt", Driver: "org.mariadb.jdbc.Driver"},
			[]string{"database-ca=tls-pem"}},
		{"derby", databasev1alpha1.Connection{Engine: databasev1alpha1.Derby, Database: "/opkit/data/metastore"},
			database.JDBC{URL: "jdbc:derby:/opkit/data/metastore;create=true", Driver: "org.apache.derby.jdbc.EmbeddedDriver"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := secretvolume.New(secretvolume.Options{})
			w, err := database.Wire(tt.conn, "spec.database", set, database.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, w.JDBC); diff != "" {
				t.Errorf("JDBC (-want +got):\n%s", diff)
			}
			vols, err := set.Volumes()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vols {
				got = append(got, v.Name+"="+v.Ephemeral.VolumeClaimTemplate.Annotations[secretclassv1alpha1.AnnotationFormat])
			}
			if diff := cmp.Diff(tt.volumes, got); diff != "" {
				t.Errorf("volumes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCredentialsComeFromTheSecret(t *testing.T) {
	w, err := database.Wire(databasev1alpha1.Connection{Engine: databasev1alpha1.PostgreSQL, Host: "db", Database: "airflow", CredentialsSecret: "airflow-db"},
		"spec.database", secretvolume.New(secretvolume.Options{}), database.Options{UsernameEnv: "AIRFLOW_DB_USER"})
	if err != nil {
		t.Fatal(err)
	}
	ref := func(key string) *corev1.EnvVarSource {
		return &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "airflow-db"}, Key: key}}
	}
	want := []corev1.EnvVar{{Name: "AIRFLOW_DB_USER", ValueFrom: ref("username")}, {Name: "DB_PASSWORD", ValueFrom: ref("password")}}
	if diff := cmp.Diff(want, w.Env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
	if w.CredentialsSecret != "airflow-db" || w.CredentialsField != "spec.database.credentialsSecret" {
		t.Errorf("dependency %q at %q", w.CredentialsSecret, w.CredentialsField)
	}
}

func TestInvalidConnectionsNameTheirFields(t *testing.T) {
	tests := []struct {
		name   string
		conn   databasev1alpha1.Connection
		fields []string
	}{
		{"nothing", databasev1alpha1.Connection{}, []string{"spec.database.database", "spec.database.engine"}},
		{"a server without host or credentials", databasev1alpha1.Connection{Engine: databasev1alpha1.MySQL, Database: "x"},
			[]string{"spec.database.credentialsSecret", "spec.database.host"}},
		{"a URL as host, a bad Secret name, a bad port", databasev1alpha1.Connection{Engine: databasev1alpha1.MariaDB, Database: "x",
			Host: "db:3306", CredentialsSecret: "Db_Creds", Port: ptr.To[int32](70000)},
			[]string{"spec.database.credentialsSecret", "spec.database.host", "spec.database.port"}},
		{"derby with a server's settings", databasev1alpha1.Connection{Engine: databasev1alpha1.Derby, Database: "x",
			Host: "db", Port: ptr.To[int32](1527), TLS: noCheck},
			[]string{"spec.database.host", "spec.database.port", "spec.database.tls"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := database.Wire(tt.conn, "spec.database", secretvolume.New(secretvolume.Options{}), database.Options{})
			var fields []string
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				if !errors.Is(e, failure.ErrInvalid) || failure.AuthorOf(e) != failure.AuthorUser {
					t.Errorf("%v is not the user's invalid input", e)
				}
				fields = append(fields, failure.FieldOf(e))
			}
			slices.SortFunc(fields, strings.Compare)
			if diff := cmp.Diff(tt.fields, fields); diff != "" {
				t.Errorf("fields (-want +got):\n%s\nerror: %v", diff, err)
			}
		})
	}
}
