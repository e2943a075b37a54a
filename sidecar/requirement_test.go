package sidecar_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/sidecar"
)

func TestRequirementCheck(t *testing.T) {
	framework := sidecar.Requirement{Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "kafka-broker-default",
		Keys: []string{"jmx.yaml", "log.yaml"}, NamedBy: failure.AuthorOperator, Provider: "jmx-exporter"}
	user := sidecar.Requirement{Kind: sidecar.KindSecret, Namespace: "ns", Name: "creds", Keys: []string{"password"},
		Field: "spec.roles.broker.config.credentialsSecret", NamedBy: failure.AuthorUser, Provider: "auth"}
	meta := metav1.ObjectMeta{Namespace: "ns", Name: "x"}
	type verdict struct {
		Message string
		Class   failure.Class
		Author  failure.Author
		Field   string
		Delay   time.Duration
	}
	tests := []struct {
		name string
		req  sidecar.Requirement
		obj  sidecar.Object
		want *verdict
	}{
		{name: "ConfigMap with every key, one in binaryData", req: framework,
			obj: &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"jmx.yaml": ""}, BinaryData: map[string][]byte{"log.yaml": nil}}},
		{name: "framework's ConfigMap absent: wait for it", req: framework, obj: nil,
			want: &verdict{`sidecar "jmx-exporter" needs ConfigMap ns/kafka-broker-default, which does not exist`,
				failure.ClassRequeue, failure.AuthorOperator, "sidecars[jmx-exporter]", sidecar.MissingObjectRequeueDelay}},
		{name: "a typed nil counts as absent", req: framework, obj: (*corev1.ConfigMap)(nil),
			want: &verdict{`sidecar "jmx-exporter" needs ConfigMap ns/kafka-broker-default, which does not exist`,
				failure.ClassRequeue, failure.AuthorOperator, "sidecars[jmx-exporter]", sidecar.MissingObjectRequeueDelay}},
		{name: "framework's ConfigMap without the keys: the operator's mistake", req: framework,
			obj: &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"other": ""}},
			want: &verdict{`sidecar "jmx-exporter" needs ConfigMap ns/kafka-broker-default to hold "jmx.yaml", "log.yaml"`,
				failure.ClassInvalid, failure.AuthorOperator, "sidecars[jmx-exporter]", 0}},
		{name: "user's Secret absent: invalid input naming the field", req: user, obj: nil,
			want: &verdict{`spec.roles.broker.config.credentialsSecret: sidecar "auth" needs Secret ns/creds, which does not exist`,
				failure.ClassInvalid, failure.AuthorUser, "spec.roles.broker.config.credentialsSecret", 0}},
		{name: "user's Secret without the key", req: user, obj: &corev1.Secret{ObjectMeta: meta, Data: map[string][]byte{"user": nil}},
			want: &verdict{`spec.roles.broker.config.credentialsSecret: sidecar "auth" needs Secret ns/creds to hold "password"`,
				failure.ClassInvalid, failure.AuthorUser, "spec.roles.broker.config.credentialsSecret", 0}},
		{name: "Secret with the key in stringData", req: user, obj: &corev1.Secret{ObjectMeta: meta, StringData: map[string]string{"password": "x"}}},
		{name: "an object of another kind is the operator's mistake", req: user, obj: &corev1.ConfigMap{ObjectMeta: meta},
			want: &verdict{`sidecars[auth]: the requirement of Secret ns/creds was checked against a *v1.ConfigMap`,
				failure.ClassInvalid, failure.AuthorOperator, "sidecars[auth]", 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.req.Check(tt.obj)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			got := &verdict{err.Error(), failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err), failure.Delay(err)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewObjectIsTheRequiredKindAndName(t *testing.T) {
	for _, kind := range []sidecar.ObjectKind{sidecar.KindConfigMap, sidecar.KindSecret} {
		obj := sidecar.Requirement{Kind: kind, Namespace: "ns", Name: "n"}.NewObject()
		require.Equal(t, "ns", obj.GetNamespace())
		require.Equal(t, "n", obj.GetName())
		err := sidecar.Requirement{Kind: kind, Namespace: "ns", Name: "n"}.Check(obj)
		require.NoError(t, err, "an object of the required kind with no keys required")
	}
}

func TestCheckAllJoinsVerdictsAndKeepsReadFailures(t *testing.T) {
	transient := failure.Retriable(errors.New("503 service unavailable"), time.Second)
	reqs := []sidecar.Requirement{
		{Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "present", Keys: []string{"k"}, Provider: "a"},
		{Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "unreadable", Provider: "b"},
		{Kind: sidecar.KindSecret, Namespace: "ns", Name: "absent", Field: "spec.s", NamedBy: failure.AuthorUser, Provider: "c"},
	}
	err := sidecar.CheckAll(reqs, func(r sidecar.Requirement) (sidecar.Object, error) {
		switch r.Name {
		case "present":
			return &corev1.ConfigMap{Data: map[string]string{"k": "v"}}, nil
		case "unreadable":
			return nil, transient
		}
		return nil, nil
	})
	want := "read ConfigMap ns/unreadable for sidecar \"b\": 503 service unavailable\n" +
		"spec.s: sidecar \"c\" needs Secret ns/absent, which does not exist"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	require.ErrorIs(t, err, transient, "the read failure stays in the chain")
	require.ErrorIs(t, err, failure.ErrRetriable)
	require.Equal(t, failure.ClassInvalid, failure.ClassOf(err), "the user's missing Secret outranks the transient read")
	require.NoError(t, sidecar.CheckAll(reqs[:1], func(sidecar.Requirement) (sidecar.Object, error) {
		return &corev1.ConfigMap{Data: map[string]string{"k": ""}}, nil
	}))
}
