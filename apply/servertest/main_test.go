package apply_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// One control plane with controllers for the package: readiness waits need
// pods that become Ready, and namespace deletion needs its controller.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true}}

func TestMain(m *testing.M) { env.Main(m) }

const name = "demo.operators.opkit.dev"

// fixture is a reconciler on a fresh namespace, with a client whose
// requests are counted.
type fixture struct {
	t       *testing.T
	ns      string
	c       client.WithWatch
	counter *apicount.Counter
	r       *apply.Reconciler
	inv     apply.Inventory
}

func newFixture(t *testing.T, ownerID string, opts apply.Options) *fixture {
	t.Helper()
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	counter := apicount.New()
	cfg := rest.CopyConfig(cp.Config)
	cfg.Wrap(counter.WrapTransport)
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: cp.Client.Scheme()})
	require.NoError(t, err)
	if opts.DefaultNamespace == "" {
		opts.DefaultNamespace = ns
	}
	r, err := apply.New(name, ownerID, c, opts)
	require.NoError(t, err)
	return &fixture{t: t, ns: ns, c: c, counter: counter, r: r}
}

// applyUntilReady calls Apply until it reports ready.
func (f *fixture) applyUntilReady(objects ...client.Object) apply.Result {
	f.t.Helper()
	res, err := testkit.WaitFor(f.t.Context(), func(ctx context.Context) (apply.Result, bool, error) {
		res, err := f.r.Apply(ctx, &f.inv, objects)
		return res, err == nil && res.Ready, err
	}, 2*time.Minute)
	require.NoError(f.t, err)
	return res
}

// deleteUntilDone calls Delete until it reports done.
func (f *fixture) deleteUntilDone() {
	f.t.Helper()
	_, err := testkit.WaitFor(f.t.Context(), func(ctx context.Context) (int, bool, error) {
		done, err := f.r.Delete(ctx, &f.inv)
		return len(f.inv), err == nil && done, err
	}, 2*time.Minute)
	require.NoError(f.t, err)
}

func configMap(ns, name string, data map[string]string, annotations map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations},
		Data:       data,
	}
}

// key returns "<reconciler name>/<suffix>".
func key(suffix string) string { return name + "/" + suffix }

func schemaGK(group, kind string) schema.GroupKind { return schema.GroupKind{Group: group, Kind: kind} }
