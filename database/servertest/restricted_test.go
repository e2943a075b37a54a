package servertest_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	databasev1alpha1 "github.com/opkit-dev/opkit/api/database/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/database"
	"github.com/opkit-dev/opkit/secretvolume"
	"github.com/opkit-dev/opkit/testkit"
)

// TestWiringAcceptedUnderRestrictedPodSecurity dry-run creates the
// StatefulSet of a metastore on MySQL checked against a secret class's CA:
// the secretKeyRef variables and the trust store volume are valid, and the
// pods are admitted under the restricted profile.
func TestWiringAcceptedUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	set := secretvolume.New(secretvolume.Options{})
	w, err := database.Wire(databasev1alpha1.Connection{
		Engine: databasev1alpha1.MySQL, Host: "mysql.data", Database: "metastore", CredentialsSecret: "metastore-db",
		TLS: &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
			Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{SecretClass: ptr.To("tls")}}}},
	}, "spec.database", set, database.Options{})
	require.NoError(t, err)
	scope := builders.Scope{Namespace: ns, Cluster: "prod", Role: "metastore", RoleGroup: "default"}
	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "hive", Env: w.Env}).
		WithImage("registry.example/hive:4.0.1", corev1.PullIfNotPresent).
		WithInjectors(set).Build()
	require.NoError(t, err)
	pod := &corev1.Pod{ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(), Spec: *sts.Spec.Template.Spec.DeepCopy()}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	for _, obj := range []client.Object{sts, pod} {
		require.NoError(t, cp.Client.Create(t.Context(), obj, client.DryRunAll), "dry-run create %T", obj)
	}
}
