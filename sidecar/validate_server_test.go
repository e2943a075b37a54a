package sidecar_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// TestValidateAllNamesWhatIsMissing walks a role group from nothing to
// everything its sidecars need, against a real API server.
func TestValidateAllNamesWhatIsMissing(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	target := sidecar.Target{Scope: builders.Scope{Namespace: ns, Cluster: "kafka", Role: "broker", RoleGroup: "default"}, MainContainer: "main"}

	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{})
	require.NoError(t, err)
	m := sidecar.NewManager()
	require.NoError(t, m.Register(jmx))
	require.NoError(t, m.Register(&stubProvider{name: "auth", secret: "credentials"}))

	validate := func() []string {
		err := m.ValidateAll(t.Context(), cp.Client, target)
		if err == nil {
			return nil
		}
		var verr *builders.ValidationError
		require.ErrorAs(t, err, &verr, "a missing object must fail the role group, not be retried")
		var missing *sidecar.MissingObjectError
		require.ErrorAs(t, err, &missing)
		var msgs []string
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			msgs = append(msgs, e.Error())
		}
		return msgs
	}
	steps := []struct {
		name   string
		create func() error
		want   []string
	}{{
		name: "nothing exists",
		// auth is in the producer phase, so it comes first.
		want: []string{
			`spec.credentialsSecret: sidecar "auth" cannot start: Secret ` + ns + `/credentials not found`,
			`sidecars[jmx-exporter]: sidecar "jmx-exporter" cannot start: ConfigMap ` + ns + `/kafka-broker-default not found`,
		},
	}, {
		name: "the ConfigMap lacks the rules",
		create: func() error {
			return cp.Client.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kafka-broker-default", Namespace: ns},
				Data: map[string]string{"server.properties": ""}})
		},
		want: []string{
			`spec.credentialsSecret: sidecar "auth" cannot start: Secret ` + ns + `/credentials not found`,
			`sidecars[jmx-exporter]: sidecar "jmx-exporter" cannot start: ConfigMap ` + ns + `/kafka-broker-default has no key "jmx-exporter.yaml"`,
		},
	}, {
		name: "the Secret exists, the rules are added",
		create: func() error {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kafka-broker-default", Namespace: ns},
				Data: map[string]string{"server.properties": "", "jmx-exporter.yaml": "rules: []"}}
			return errors.Join(cp.Client.Update(t.Context(), cm), cp.Client.Create(t.Context(), &corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Name: "credentials", Namespace: ns}, Data: map[string][]byte{"password": []byte("x")}}))
		},
	}}
	for _, s := range steps {
		if s.create != nil {
			require.NoError(t, s.create(), s.name)
		}
		if diff := cmp.Diff(s.want, validate()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", s.name, diff)
		}
	}

	// A disabled provider is not validated.
	require.NoError(t, cp.Client.Delete(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "credentials", Namespace: ns}}))
	require.NoError(t, m.Disable("auth"))
	require.NoError(t, m.ValidateAll(t.Context(), cp.Client, target))
}

// TestValidateAllLeavesReadFailuresRetriable checks that an API failure is
// not mistaken for a user's mistake: the role group must be retried, not
// failed.
func TestValidateAllLeavesReadFailuresRetriable(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	inj, err := faults.New(faults.Options{Seed: 1, Rules: []faults.Rule{
		{Verbs: []string{"get"}, Resources: []string{"configmaps"}, Fault: faults.InternalError, Rate: 1},
	}})
	require.NoError(t, err)
	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{})
	require.NoError(t, err)
	m := sidecar.NewManager()
	require.NoError(t, m.Register(jmx))

	target := sidecar.Target{Scope: builders.Scope{Namespace: ns, Cluster: "kafka", Role: "broker", RoleGroup: "default"}, MainContainer: "main"}
	err = m.ValidateAll(t.Context(), inj.Client(cp.Client), target)
	require.Error(t, err)
	require.True(t, apierrors.IsInternalError(err), "the API error must stay visible: %v", err)
	var verr *builders.ValidationError
	require.False(t, errors.As(err, &verr), "a read failure is not a validation failure: %v", err)
	require.ErrorContains(t, err, `validate sidecar "jmx-exporter": read ConfigMap `+ns+`/kafka-broker-default`)
}
