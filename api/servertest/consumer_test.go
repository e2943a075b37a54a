package servertest_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	consumerv1alpha1 "github.com/opkit-dev/opkit/api/servertest/consumer/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

// TestEmbeddedTypesAdmission proves that the rules travel with the types
// into a product's CRD, at the path the product embeds them.
func TestEmbeddedTypesAdmission(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	consumer := func(name string, spec consumerv1alpha1.ConsumerSpec) *consumerv1alpha1.Consumer {
		return &consumerv1alpha1.Consumer{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	}
	postgres := &databasev1alpha1.Connection{Engine: databasev1alpha1.PostgreSQL, Host: "postgres", Database: "metastore", CredentialsSecret: "metastore-db"}
	external := listenerv1alpha1.ExternalStable
	checkAdmission(t, t.Context(), cp.Client, []admission{
		{name: "everything set", obj: consumer("full", consumerv1alpha1.ConsumerSpec{
			Warehouse:      &s3v1alpha1.BucketSource{Reference: ptr.To("warehouse")},
			Database:       postgres,
			Authentication: []authenticationv1alpha1.ClassReference{{AuthenticationClass: "oidc", OIDC: &authenticationv1alpha1.OIDCClientOptions{ClientCredentialsSecret: "oidc-client"}}},
			ListenerClass:  &external,
			Keytab:         &secretclassv1alpha1.Volume{SecretClass: "kerberos", Scope: &secretclassv1alpha1.Scope{Pod: true, ListenerVolumes: []string{"listener"}}},
			TLS:            &secretclassv1alpha1.TLS{},
		})},
		{name: "inline bucket", obj: consumer("inline-bucket", consumerv1alpha1.ConsumerSpec{Warehouse: &s3v1alpha1.BucketSource{
			Inline: &s3v1alpha1.BucketSpec{BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{Reference: ptr.To("minio")}}}})},
		{name: "embedded derby", obj: consumer("derby", consumerv1alpha1.ConsumerSpec{Database: &databasev1alpha1.Connection{
			Engine: databasev1alpha1.Derby, Database: "/opkit/data/metastore"}})},
		{name: "bucket both inline and by reference", obj: consumer("both", consumerv1alpha1.ConsumerSpec{Warehouse: &s3v1alpha1.BucketSource{
			Reference: ptr.To("warehouse"),
			Inline:    &s3v1alpha1.BucketSpec{BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{Reference: ptr.To("minio")}}}}),
			refused: []string{"spec.warehouse"}, text: "set exactly one of inline and reference"},
		{name: "bucket neither inline nor by reference", obj: consumer("neither", consumerv1alpha1.ConsumerSpec{Warehouse: &s3v1alpha1.BucketSource{}}),
			refused: []string{"spec.warehouse"}, text: "set exactly one of inline and reference"},
		{name: "inline bucket whose connection states both", obj: consumer("nested", consumerv1alpha1.ConsumerSpec{Warehouse: &s3v1alpha1.BucketSource{
			Inline: &s3v1alpha1.BucketSpec{BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{
				Reference: ptr.To("minio"), Inline: &s3v1alpha1.ConnectionSpec{Host: "s3.local"}}}}}),
			refused: []string{"spec.warehouse.inline.connection"}, text: "set exactly one of inline and reference"},
		{name: "unknown listener class", obj: consumer("listener", consumerv1alpha1.ConsumerSpec{ListenerClass: ptr.To(listenerv1alpha1.Class("external"))}),
			refused: []string{"spec.listenerClass"}, text: "Unsupported value"},
		{name: "unknown database engine", obj: consumer("engine", consumerv1alpha1.ConsumerSpec{Database: &databasev1alpha1.Connection{
			Engine: "oracle", Host: "db", Database: "x", CredentialsSecret: "db"}}),
			refused: []string{"spec.database.engine"}, text: "Unsupported value"},
		{name: "server database without credentials", obj: consumer("no-creds", consumerv1alpha1.ConsumerSpec{Database: &databasev1alpha1.Connection{
			Engine: databasev1alpha1.PostgreSQL, Host: "postgres", Database: "metastore"}}),
			refused: []string{"spec.database"}, text: "host and credentialsSecret are required unless the engine is derby"},
		{name: "derby with a host", obj: consumer("derby-host", consumerv1alpha1.ConsumerSpec{Database: &databasev1alpha1.Connection{
			Engine: databasev1alpha1.Derby, Host: "db", Database: "/opkit/data/metastore"}}),
			refused: []string{"spec.database"}, text: "an embedded derby database has no host, port or tls"},
		{name: "authentication without class", obj: consumer("auth", consumerv1alpha1.ConsumerSpec{
			Authentication: []authenticationv1alpha1.ClassReference{{}}}),
			refused: []string{"spec.authentication[0].authenticationClass"}, text: "at least 1 chars long"},
		{name: "duplicate scope services", obj: consumer("scope", consumerv1alpha1.ConsumerSpec{
			Keytab: &secretclassv1alpha1.Volume{SecretClass: "kerberos", Scope: &secretclassv1alpha1.Scope{Services: []string{"a", "a"}}}}),
			refused: []string{"spec.keytab.scope.services[1]"}, text: "Duplicate value"},
	})
}
