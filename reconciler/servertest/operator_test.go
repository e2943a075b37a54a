package servertest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/go-logr/logr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

type sampleCluster = samplev1alpha1.SampleCluster

// operatorName is the reconciler's name in these tests.
const operatorName = "sample.opkit.dev"

// operator is a running manager with the product reconciler, its API
// traffic counted.
type operator struct {
	r      *reconciler.Reconciler[*sampleCluster]
	client client.Client
	// api reads through the operator's counted transport, uncached.
	api   client.Reader
	count *apicount.Counter
}

// catalog is a small product: servers (a client Service, metrics) and
// gateways.
func catalog() reconciler.Catalog {
	return reconciler.Catalog{
		"server": {
			ContainerPorts: []corev1.ContainerPort{{Name: "client", ContainerPort: 2181}, {Name: "metrics", ContainerPort: 9404}},
			ServicePorts:   []corev1.ServicePort{{Name: "client", Port: 2181, TargetPort: intstr.FromString("client")}},
			Metrics:        &reconciler.MetricsEndpoint{Port: corev1.ServicePort{Name: "metrics", Port: 9404, TargetPort: intstr.FromString("metrics")}},
		},
		"gateway": {
			ContainerPorts: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
			ServicePorts:   []corev1.ServicePort{{Name: "http", Port: 8080, TargetPort: intstr.FromString("http")}},
		},
	}
}

// baseConfig is the product's reconciler configuration; tests change what
// they exercise.
func baseConfig() reconciler.Config[*sampleCluster] {
	return reconciler.Config[*sampleCluster]{
		Name:  operatorName,
		For:   &sampleCluster{},
		Roles: reconciler.StaticRoles[*sampleCluster](catalog()),
		Image: imageresolve.Options{ProductName: "sample", Defaults: commonsv1alpha1.ImageSpec{Repo: "registry.example/opkit", ProductVersion: "1.0.0"}},
		Handler: &reconciler.DefaultHandler[*sampleCluster]{
			ConfigFiles: func(_ context.Context, cr *sampleCluster, bc *reconciler.BuildContext) (map[string]map[string]string, error) {
				return map[string]map[string]string{"server.properties": {"cluster": cr.Name, "role": bc.Role}}, nil
			},
		},
		ProgressInterval: 2 * time.Second,
	}
}

// startOperator runs cfg's reconciler in a manager restricted to ns until
// the test ends.
func startOperator(t *testing.T, cp *controlplane.ControlPlane, ns string, cfg reconciler.Config[*sampleCluster], wrap ...func(http.RoundTripper) http.RoundTripper) *operator {
	t.Helper()
	rc := cp.RESTConfig()
	for _, w := range wrap {
		rc.Wrap(w)
	}
	return startOperatorWith(t, rc, ns, cfg, testkit.Logger(t))
}

// startOperatorWith runs cfg's reconciler in a manager restricted to ns,
// talking to the API server through rc and logging through log, until the
// test ends.
func startOperatorWith(t *testing.T, rc *rest.Config, ns string, cfg reconciler.Config[*sampleCluster], log logr.Logger) *operator {
	t.Helper()
	return startOperatorClient(t, rc, ns, cfg, log, nil)
}

// startOperatorClient is startOperatorWith whose manager builds its client
// with newClient (nil: controller-runtime's).
func startOperatorClient(t *testing.T, rc *rest.Config, ns string, cfg reconciler.Config[*sampleCluster], log logr.Logger, newClient client.NewClientFunc) *operator {
	t.Helper()
	count := apicount.New()
	rc.Wrap(count.WrapTransport)
	r, mgr := newOperatorManager(t, rc, ns, cfg, log, newClient)
	testkit.RunManager(t, mgr)
	return &operator{r: r, client: mgr.GetClient(), api: mgr.GetAPIReader(), count: count}
}

// newOperatorManager returns cfg's reconciler set up in a manager
// restricted to ns, not started yet, which builds its client with
// newClient (nil: controller-runtime's).
func newOperatorManager(t *testing.T, rc *rest.Config, ns string, cfg reconciler.Config[*sampleCluster], log logr.Logger, newClient client.NewClientFunc) (*reconciler.Reconciler[*sampleCluster], manager.Manager) {
	t.Helper()
	cfg.Namespaces = []string{ns}
	r, err := reconciler.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(rc, ctrl.Options{
		Scheme:     testScheme(),
		Cache:      cacheOpts,
		Client:     clientOpts,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Logger:     log,
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
		NewClient:  newClient,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetupWithManager(t.Context(), mgr); err != nil {
		t.Fatal(err)
	}
	return r, mgr
}

// newCluster returns a SampleCluster in ns with the given roles, each
// role's groups given as name → replicas.
func newCluster(ns, name string, roles map[string]map[string]int32) *sampleCluster {
	c := &sampleCluster{}
	c.Namespace, c.Name = ns, name
	c.Spec.Roles = map[string]commonsv1alpha1.RoleSpec{}
	for role, groups := range roles {
		rs := commonsv1alpha1.RoleSpec{RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{}}
		for g, n := range groups {
			rs.RoleGroups[g] = commonsv1alpha1.RoleGroupSpec{Replicas: ptr.To(n)}
		}
		c.Spec.Roles[role] = rs
	}
	return c
}

// waitCondition waits until the cluster's condition typ has status and,
// when reason is not empty, reason. It returns the cluster as last read.
func waitCondition(t *testing.T, c client.Client, key client.ObjectKey, typ string, status string, reason string, timeout time.Duration) *sampleCluster {
	t.Helper()
	got, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*sampleCluster, bool, error) {
		cr := &sampleCluster{}
		if err := c.Get(ctx, key, cr); err != nil {
			return nil, false, err
		}
		for _, cond := range cr.Status.Conditions {
			if cond.Type == typ && string(cond.Status) == status && (reason == "" || cond.Reason == reason) {
				return cr, true, nil
			}
		}
		return cr, false, nil
	}, timeout)
	if err != nil {
		t.Fatalf("waiting for %s=%s (%s): %v", typ, status, reason, err)
	}
	return got
}
