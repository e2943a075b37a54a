package servertest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/sample"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// One control plane with controllers for the package: readiness waits need
// pods that become Ready, and namespace deletion needs its controller. The
// sample CRD gives a real status to store inventories in.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true, Scheme: newScheme(), CRDs: sample.MustCRDs()}}

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(apiextensionsv1.AddToScheme(s))
	utilruntime.Must(samplev1alpha1.AddToScheme(s))
	return s
}

func TestMain(m *testing.M) { env.Main(m) }

const name = "demo.operators.opkit.dev"

// fixture is an engine on a fresh namespace, with a client whose
// requests are counted.
type fixture struct {
	t       *testing.T
	ns      string
	c       client.WithWatch
	counter *apicount.Counter
	r       *apply.Engine
	owner   apply.Owner
	inv     inventory.Inventory
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
	r, err := apply.New(name, c, opts)
	require.NoError(t, err)
	return &fixture{t: t, ns: ns, c: c, counter: counter, r: r, owner: apply.Owner{ID: ownerID, DefaultNamespace: ns}}
}

// pass returns the options of a pass for the fixture's owner.
func (f *fixture) pass() apply.PassOptions { return apply.PassOptions{Owner: f.owner} }

// find returns the inventory item of an object, nil when there is none.
func (f *fixture) find(gk schema.GroupKind, namespace, name string) *inventory.Item {
	return inventory.NewIndex(&f.inv).Find(&f.inv, inventory.KeyOf(gk, namespace, name))
}

// applyUntilReady calls Apply until it reports done.
func (f *fixture) applyUntilReady(objects ...client.Object) apply.Result {
	f.t.Helper()
	res, err := testkit.WaitFor(testkit.Context(f.t), func(ctx context.Context) (apply.Result, bool, error) {
		res, err := f.r.Apply(ctx, &f.inv, objects, f.pass())
		return res, err == nil && res.Done, err
	}, 2*time.Minute)
	require.NoError(f.t, err)
	return res
}

// deleteUntilDone calls Delete until it reports done.
func (f *fixture) deleteUntilDone() {
	f.t.Helper()
	_, err := testkit.WaitFor(testkit.Context(f.t), func(ctx context.Context) (int, bool, error) {
		res, err := f.r.Delete(ctx, &f.inv, f.pass())
		return f.inv.Len(), err == nil && res.Done, err
	}, 2*time.Minute)
	require.NoError(f.t, err)
}

// ignored returns the ignored fields the result reports, per object.
func ignored(res apply.Result) map[string][]string {
	out := map[string][]string{}
	for _, c := range res.Changes {
		if len(c.IgnoredFields) > 0 {
			out[c.Object.String()] = c.IgnoredFields
		}
	}
	return out
}

func configMap(ns, name string, data map[string]string, annotations map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations},
		Data:       data,
	}
}

// key returns "<engine name>/<suffix>".
func key(suffix string) string { return name + "/" + suffix }

func schemaGK(group, kind string) schema.GroupKind { return schema.GroupKind{Group: group, Kind: kind} }
