// Package v1alpha1 holds Connection, the type a product CRD embeds to
// point at a database for its metadata (a Hive metastore, a Superset or
// Airflow backend): the engine, where it runs, the database, the Secret
// with the credentials and the TLS settings.
//
//	type MetastoreSpec struct {
//		Database databasev1alpha1.Connection `json:"database"`
//	}
//
// Module database renders a Connection as a JDBC URL and driver class, and
// as environment variables reading the credentials Secret.
//
// +kubebuilder:object:generate=true
package v1alpha1

//go:generate ../../../hack/controller-gen.sh object paths=./...
