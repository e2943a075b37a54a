// Package database renders the database connection a product's cluster
// resource states (api/database/v1alpha1.Connection) as what the product
// configures: a JDBC URL and driver class, environment variables that read
// the credentials from their Secret, and, for TLS checked against a secret
// class's CA, the secret-operator volume with that CA. Pure: no client-go,
// no controller-runtime.
//
//	set := secretvolume.New(secretvolume.Options{})
//	w, err := database.Wire(cr.Spec.Database, "spec.database", set, database.Options{})
//	if err != nil {
//		return err // failure.ErrInvalid naming spec.database.host, …
//	}
//	props["javax.jdo.option.ConnectionURL"] = w.JDBC.URL
//	props["javax.jdo.option.ConnectionDriverName"] = w.JDBC.Driver
//	decl.Env = append(decl.Env, w.Env...)
//
// The credentials Secret is the product's dependency: declare it
// (w.CredentialsSecret, at w.CredentialsField) so a missing one stops the
// pass before anything is applied.
package database
