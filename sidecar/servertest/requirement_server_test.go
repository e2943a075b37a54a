package servertest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// credentials is a provider needing a Secret the user names.
type credentials struct{}

func (credentials) Name() string         { return "auth" }
func (credentials) Phase() sidecar.Phase { return sidecar.PhaseProducer }
func (credentials) Inject(*corev1.PodSpec, builders.PodTarget) error {
	return nil
}
func (credentials) Requirements(t builders.PodTarget) []sidecar.Requirement {
	return []sidecar.Requirement{{Kind: sidecar.KindSecret, Namespace: t.Scope.Namespace, Name: "credentials",
		Keys: []string{"password"}, Field: "spec.credentialsSecret", NamedBy: failure.AuthorUser}}
}

// TestRequirementsJudgedAgainstTheServer walks a role group from nothing to
// everything its sidecars need, reading each object from a real API server
// as a reconciler does.
func TestRequirementsJudgedAgainstTheServer(t *testing.T) {
	cp := env.Require(t)
	ctx := t.Context()
	ns := testkit.Namespace(t, cp.Client)
	target := builders.PodTarget{Scope: builders.Scope{Namespace: ns, Cluster: "kafka", Role: "broker", RoleGroup: "default"}, MainContainer: "main"}

	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{})
	require.NoError(t, err)
	reg, err := sidecar.NewRegistry(jmx, credentials{})
	require.NoError(t, err)
	plan, err := reg.Plan(sidecar.PlanOptions{})
	require.NoError(t, err)

	type verdict struct {
		Message string
		Class   failure.Class
	}
	check := func() []verdict {
		err := sidecar.CheckAll(plan.Requirements(target), fetcher(ctx, cp.Client))
		if err == nil {
			return nil
		}
		var got []verdict
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			got = append(got, verdict{e.Error(), failure.ClassOf(e)})
		}
		return got
	}
	steps := []struct {
		name   string
		create func() error
		want   []verdict
	}{{
		name: "nothing exists: the user's Secret is invalid input, the role group's ConfigMap awaited",
		// auth is in the producer phase, so it comes first.
		want: []verdict{
			{`spec.credentialsSecret: sidecar "auth" needs Secret ` + ns + `/credentials, which does not exist`, failure.ClassInvalid},
			{`sidecar "jmx-exporter" needs ConfigMap ` + ns + `/kafka-broker-default, which does not exist`, failure.ClassRequeue},
		},
	}, {
		name: "the ConfigMap lacks the rules: the operator's mistake",
		create: func() error {
			return cp.Client.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kafka-broker-default", Namespace: ns},
				Data: map[string]string{"server.properties": ""}})
		},
		want: []verdict{
			{`spec.credentialsSecret: sidecar "auth" needs Secret ` + ns + `/credentials, which does not exist`, failure.ClassInvalid},
			{`sidecar "jmx-exporter" needs ConfigMap ` + ns + `/kafka-broker-default to hold "jmx-exporter.yaml"`, failure.ClassInvalid},
		},
	}, {
		name: "the Secret is written through stringData, the rules as binaryData",
		create: func() error {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kafka-broker-default", Namespace: ns},
				Data: map[string]string{"server.properties": ""}, BinaryData: map[string][]byte{"jmx-exporter.yaml": []byte("rules: []")}}
			return errors.Join(cp.Client.Update(ctx, cm), cp.Client.Create(ctx, &corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Name: "credentials", Namespace: ns}, StringData: map[string]string{"password": "x"}}))
		},
	}}
	for _, s := range steps {
		if s.create != nil {
			require.NoError(t, s.create(), s.name)
		}
		if diff := cmp.Diff(s.want, check()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", s.name, diff)
		}
	}

	// A disabled provider's requirements are not listed.
	require.NoError(t, cp.Client.Delete(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "credentials", Namespace: ns}}))
	without, err := reg.Plan(sidecar.PlanOptions{Disabled: []string{"auth"}})
	require.NoError(t, err)
	require.NoError(t, sidecar.CheckAll(without.Requirements(target), fetcher(ctx, cp.Client)))
}

// TestReadFailuresStayRetriable checks that an API failure is not mistaken
// for a missing object: the role group must be retried, not failed.
func TestReadFailuresStayRetriable(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	inj, err := faults.New(faults.Options{Seed: 1, Rules: []faults.Rule{
		{Verbs: []string{"get"}, Resources: []string{"configmaps"}, Fault: faults.InternalError, Rate: 1},
	}})
	require.NoError(t, err)
	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{})
	require.NoError(t, err)
	reg, err := sidecar.NewRegistry(jmx)
	require.NoError(t, err)
	plan, err := reg.Plan(sidecar.PlanOptions{})
	require.NoError(t, err)

	target := builders.PodTarget{Scope: builders.Scope{Namespace: ns, Cluster: "kafka", Role: "broker", RoleGroup: "default"}, MainContainer: "main"}
	err = sidecar.CheckAll(plan.Requirements(target), fetcher(t.Context(), inj.Client(cp.Client)))
	require.Error(t, err)
	require.True(t, apierrors.IsInternalError(err), "the API error must stay visible: %v", err)
	require.Equal(t, failure.ClassRetriable, failure.ClassOf(err), "a read failure is not invalid input: %v", err)
	require.ErrorContains(t, err, `read ConfigMap `+ns+`/kafka-broker-default for sidecar "jmx-exporter"`)
}
