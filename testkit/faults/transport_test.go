package faults_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// faultyClient returns a client whose requests go through inj's transport.
func faultyClient(t *testing.T, inj *faults.Injector) client.Client {
	t.Helper()
	cp := env.Require(t)
	cfg := cp.RESTConfig()
	cfg.Wrap(inj.WrapTransport)
	c, err := client.New(cfg, client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper()})
	require.NoError(t, err)
	return c
}

func configMap(ns, name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func TestTransportFaultsAreRealAPIErrors(t *testing.T) {
	tests := []struct {
		fault faults.Fault
		is    func(error) bool
	}{
		{faults.Conflict, apierrors.IsConflict},
		{faults.TooManyRequests, apierrors.IsTooManyRequests},
		{faults.InternalError, apierrors.IsInternalError},
		{faults.ServiceUnavailable, apierrors.IsServiceUnavailable},
		{faults.Timeout, apierrors.IsTimeout},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			inj, err := faults.New(faults.Options{Seed: 1, Rules: []faults.Rule{
				{Verbs: []string{"update"}, Resources: []string{"configmaps"}, Fault: tt.fault, Rate: 1},
			}})
			require.NoError(t, err)
			c := faultyClient(t, inj)
			ns := testkit.Namespace(t, env.Require(t).Client)
			cm := configMap(ns, "target")
			require.NoError(t, c.Create(t.Context(), cm), "create is not matched by the rule")

			cm.Data = map[string]string{"k": "v"}
			err = c.Update(t.Context(), cm)
			require.True(t, tt.is(err), "want %s, got %v", tt.fault, err)

			var stored corev1.ConfigMap
			require.NoError(t, c.Get(t.Context(), client.ObjectKeyFromObject(cm), &stored))
			require.Empty(t, stored.Data, "the failed update never reached the server")
			require.Equal(t, []faults.Count{{Fault: tt.fault, Verb: "update", Resource: "configmaps", N: 1}}, inj.Counts())
		})
	}
}

func TestRetryAfterIsHonouredByClientGo(t *testing.T) {
	// Every other get fails with 429 and Retry-After; client-go waits and
	// retries on its own, so the caller sees success and the injector saw
	// more requests than the caller made.
	inj, err := faults.New(faults.Options{Seed: 7, Rules: []faults.Rule{
		{Verbs: []string{"get"}, Resources: []string{"configmaps"}, Fault: faults.TooManyRequests, Rate: 0.5, RetryAfter: time.Second},
	}})
	require.NoError(t, err)
	c := faultyClient(t, inj)
	ns := testkit.Namespace(t, env.Require(t).Client)
	cm := configMap(ns, "retried")
	require.NoError(t, c.Create(t.Context(), cm))
	for range 4 {
		require.NoError(t, c.Get(t.Context(), client.ObjectKeyFromObject(cm), &corev1.ConfigMap{}))
	}
	require.Positive(t, inj.Total(), "seed 7 injects at least one 429 in four gets")
}

func TestSameSeedSameFaults(t *testing.T) {
	run := func(seed uint64) []faults.Injection {
		inj, err := faults.New(faults.Options{Seed: seed, Rules: []faults.Rule{
			{Verbs: []string{"get"}, Fault: faults.Conflict, Rate: 0.3},
			{Verbs: []string{"create"}, Fault: faults.InternalError, Rate: 0.3},
		}})
		require.NoError(t, err)
		c := faultyClient(t, inj)
		ns := testkit.Namespace(t, env.Require(t).Client)
		for i := range 20 {
			cm := configMap(ns, fmt.Sprintf("cm-%d", i))
			_ = c.Create(t.Context(), cm)
			_ = c.Get(t.Context(), client.ObjectKeyFromObject(cm), &corev1.ConfigMap{})
		}
		return inj.History()
	}
	first, again, other := run(42), run(42), run(43)
	require.NotEmpty(t, first)
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("same seed, different faults (-first +again):\n%s", diff)
	}
	require.NotEqual(t, first, other, "another seed should inject another sequence")
}

func TestFirstRequestsFailWithoutADraw(t *testing.T) {
	// Rates so low that no draw hits: only First makes these fail. The
	// second rule is tried only once the first one no longer forces, so
	// the first get is the first rule's and the second get the second's.
	inj, err := faults.New(faults.Options{Seed: 3, Rules: []faults.Rule{
		{Verbs: []string{"get"}, Resources: []string{"configmaps"}, Fault: faults.Conflict, Rate: 1e-12, First: 1},
		{Verbs: []string{"get"}, Resources: []string{"configmaps"}, Fault: faults.InternalError, Rate: 1e-12, First: 1},
	}})
	require.NoError(t, err)
	c := faultyClient(t, inj)
	ns := testkit.Namespace(t, env.Require(t).Client)
	cm := configMap(ns, "forced")
	require.NoError(t, c.Create(t.Context(), cm), "create is not matched by the rules")
	key := client.ObjectKeyFromObject(cm)

	require.True(t, apierrors.IsConflict(c.Get(t.Context(), key, &corev1.ConfigMap{})), "the first get is forced by the first rule")
	require.True(t, apierrors.IsInternalError(c.Get(t.Context(), key, &corev1.ConfigMap{})), "the second get is forced by the second rule")
	for range 3 {
		require.NoError(t, c.Get(t.Context(), key, &corev1.ConfigMap{}), "both rules spent their First")
	}
	require.Equal(t, []faults.Count{
		{Fault: faults.Conflict, Verb: "get", Resource: "configmaps", N: 1},
		{Fault: faults.InternalError, Verb: "get", Resource: "configmaps", N: 1},
	}, inj.Counts())
}

func TestDisabledInjectorPassesEverything(t *testing.T) {
	inj, err := faults.New(faults.Options{Rules: []faults.Rule{{Fault: faults.InternalError, Rate: 1}}})
	require.NoError(t, err)
	c := faultyClient(t, inj)
	inj.SetEnabled(false)
	ns := testkit.Namespace(t, env.Require(t).Client)
	require.NoError(t, c.Create(t.Context(), configMap(ns, "ok")))
	inj.SetEnabled(true)
	require.True(t, apierrors.IsInternalError(c.Create(t.Context(), configMap(ns, "fails"))))
	require.Equal(t, 1, inj.Total())
}
