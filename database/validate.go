package database

import (
	"errors"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// Validate checks conn, written at field, as the CRD's rules do, for a
// connection that bypassed them (an older CRD, one built in code): the
// engine, a host and credentials for a server, none of host, port and TLS
// for Derby, the database's name, the port's range, the names' syntax.
// Every problem is the user's, of class failure.ErrInvalid, naming its
// field; they are joined.
func Validate(conn databasev1alpha1.Connection, field string) error {
	var errs []error
	bad := func(member, format string, args ...any) {
		errs = append(errs, failure.Invalid(failure.AuthorUser, field+"."+member, format, args...))
	}
	known := slices.Contains(databasev1alpha1.Engines(), conn.Engine)
	if !known {
		bad("engine", "unknown engine %q (engines: %s)", conn.Engine, engineList())
	}
	if conn.Database == "" {
		bad("database", "is empty")
	}
	if !known {
		return errors.Join(errs...) // what else is required depends on the engine
	}
	if conn.Port != nil && (*conn.Port < 1 || *conn.Port > 65535) {
		bad("port", "%d is not a port", *conn.Port)
	}
	if conn.Engine == databasev1alpha1.Derby {
		if conn.Host != "" {
			bad("host", "an embedded derby database has no host")
		}
		if conn.Port != nil {
			bad("port", "an embedded derby database has no port")
		}
		if conn.TLS != nil {
			bad("tls", "an embedded derby database has no tls")
		}
		return errors.Join(errs...)
	}
	switch {
	case conn.Host == "":
		bad("host", "is required for engine %s", conn.Engine)
	case strings.ContainsAny(conn.Host, "/:?@ "):
		bad("host", "%q is a name or address alone, without scheme, port or path", conn.Host)
	}
	switch {
	case conn.CredentialsSecret == "":
		bad("credentialsSecret", "is required for engine %s", conn.Engine)
	case len(validation.IsDNS1123Subdomain(conn.CredentialsSecret)) > 0:
		bad("credentialsSecret", "%q is not a Secret name", conn.CredentialsSecret)
	}
	return errors.Join(errs...)
}
