package database

import (
	"fmt"
	"strings"

	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
)

// jdbcOf returns the JDBC URL and driver of a server connection. caFile is
// the mounted CA (a PEM certificate, or MySQL's PKCS#12 trust store) when
// the server is checked against a secret class's CA.
//
// TLS parameters follow each driver's documentation: encrypt without a
// check for verification none, check against the JVM's trust store for the
// web PKI, check against caFile for a secret class. They are written
// unescaped, in a fixed order, since the drivers read the paths as written.
func jdbcOf(conn databasev1alpha1.Connection, caFile string, opts Options) JDBC {
	var j JDBC
	var params []string
	host := fmt.Sprintf("%s:%d", conn.Host, port(conn))
	verified, enabled := conn.TLS.Verified(), conn.TLS.Enabled()
	switch conn.Engine {
	case databasev1alpha1.PostgreSQL:
		j = JDBC{URL: "jdbc:postgresql://" + host + "/" + conn.Database, Driver: "org.postgresql.Driver"}
		switch {
		case caFile != "":
			params = []string{"ssl=true", "sslmode=verify-full", "sslrootcert=" + caFile}
		case verified:
			params = []string{"ssl=true", "sslmode=verify-full", "sslfactory=org.postgresql.ssl.DefaultJavaSSLFactory"}
		case enabled:
			params = []string{"ssl=true", "sslmode=require"}
		}
	case databasev1alpha1.MySQL:
		j = JDBC{URL: "jdbc:mysql://" + host + "/" + conn.Database, Driver: "com.mysql.cj.jdbc.Driver"}
		switch {
		case caFile != "":
			params = []string{"sslMode=VERIFY_IDENTITY", "trustCertificateKeyStoreUrl=file:" + caFile,
				"trustCertificateKeyStoreType=PKCS12", "trustCertificateKeyStorePassword=" + or(opts.TruststorePassword, DefaultTruststorePassword)}
		case verified:
			params = []string{"sslMode=VERIFY_IDENTITY"}
		case enabled:
			params = []string{"sslMode=REQUIRED"}
		}
	case databasev1alpha1.MariaDB:
		j = JDBC{URL: "jdbc:mariadb://" + host + "/" + conn.Database, Driver: "org.mariadb.jdbc.Driver"}
		switch {
		case caFile != "":
			params = []string{"sslMode=verify-full", "serverSslCert=" + caFile}
		case verified:
			params = []string{"sslMode=verify-full"}
		case enabled:
			params = []string{"sslMode=trust"}
		}
	}
	if len(params) > 0 {
		j.URL += "?" + strings.Join(params, "&")
	}
	return j
}
