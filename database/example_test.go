package database_test

import (
	"fmt"

	"k8s.io/utils/ptr"

	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/database"
	"github.com/opkit-dev/opkit/secretvolume"
)

// A metastore on PostgreSQL whose certificate is checked against the CA of
// a secret class.
func Example() {
	conn := databasev1alpha1.Connection{
		Engine: databasev1alpha1.PostgreSQL, Host: "postgres.data", Database: "metastore", CredentialsSecret: "metastore-db",
		TLS: &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
			Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{SecretClass: ptr.To("tls")}}}},
	}
	set := secretvolume.New(secretvolume.Options{})
	w, err := database.Wire(conn, "spec.database", set, database.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.JDBC.Driver)
	fmt.Println(w.JDBC.URL)
	fmt.Println(w.Env[0].Name, w.Env[0].ValueFrom.SecretKeyRef.Name, w.Env[0].ValueFrom.SecretKeyRef.Key)
	fmt.Println(set.Names())

	conn.Host = ""
	_, err = database.Wire(conn, "spec.database", set, database.Options{})
	fmt.Println(err)
	// Output:
	// org.postgresql.Driver
	// jdbc:postgresql://postgres.data:5432/metastore?ssl=true&sslmode=verify-full&sslrootcert=/opkit/secret/database-ca/ca.crt
	// DB_USERNAME metastore-db username
	// [database-ca]
	// spec.database.host: is required for engine postgresql
}
