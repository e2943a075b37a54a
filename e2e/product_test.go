package e2e_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

type sampleCluster = samplev1alpha1.SampleCluster

// productName is the product reconciler's name.
const productName = "sample.e2e.opkit.dev"

// productConfig is a small product built as the Kafka example is: servers
// (a client Service and metrics) and gateways, each group with its config
// file.
func productConfig() reconciler.Config[*sampleCluster] {
	return reconciler.Config[*sampleCluster]{
		Name: productName,
		For:  &sampleCluster{},
		Roles: reconciler.StaticRoles[*sampleCluster](reconciler.Catalog{
			"server": {
				ContainerPorts: []corev1.ContainerPort{{Name: "client", ContainerPort: 2181}, {Name: "metrics", ContainerPort: 9404}},
				ServicePorts:   []corev1.ServicePort{{Name: "client", Port: 2181, TargetPort: intstr.FromString("client")}},
				Metrics:        &reconciler.MetricsEndpoint{Port: corev1.ServicePort{Name: "metrics", Port: 9404, TargetPort: intstr.FromString("metrics")}},
			},
			"gateway": {
				ContainerPorts: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
				ServicePorts:   []corev1.ServicePort{{Name: "http", Port: 8080, TargetPort: intstr.FromString("http")}},
			},
		}),
		Image: imageresolve.Options{ProductName: "sample", Defaults: commonsv1alpha1.ImageSpec{Repo: "registry.example/opkit", ProductVersion: "1.0.0"}},
		Handler: &reconciler.DefaultHandler[*sampleCluster]{
			ConfigFiles: func(_ context.Context, cr *sampleCluster, bc *reconciler.BuildContext) (map[string]map[string]string, error) {
				return map[string]map[string]string{"server.properties": {"cluster": cr.Name, "role": bc.Role, "group": bc.RoleGroup}}, nil
			},
		},
		ProgressInterval: 2 * time.Second,
	}
}

// operatorOptions tune how a product operator process runs.
type operatorOptions struct {
	// leaderElection, when set, makes replicas elect a leader through a
	// lease of that name in the namespace.
	leaderElection string
	// config changes the reconciler's configuration.
	config func(*reconciler.Config[*sampleCluster])
}

// productOperator returns a product operator process for the crash
// harness: a manager restricted to ns with the product reconciler, built
// from scratch from cfg on every start, as a new process would.
func productOperator(t testing.TB, ns string, o operatorOptions) func(ctx context.Context, cfg *rest.Config) error {
	return func(ctx context.Context, cfg *rest.Config) error {
		rc := productConfig()
		if o.config != nil {
			o.config(&rc)
		}
		rc.Namespaces = []string{ns}
		r, err := reconciler.New(rc)
		if err != nil {
			return err
		}
		cacheOpts, clientOpts := r.ManagerOptions()
		opts := ctrl.Options{
			Scheme:     testScheme(),
			Cache:      cacheOpts,
			Client:     clientOpts,
			Metrics:    metricsserver.Options{BindAddress: "0"},
			Logger:     operatorLogger(t),
			Controller: config.Controller{SkipNameValidation: ptr.To(true)},
		}
		if o.leaderElection != "" {
			leaderElection(&opts, ns, o.leaderElection)
		}
		mgr, err := ctrl.NewManager(cfg, opts)
		if err != nil {
			return err
		}
		if err := r.SetupWithManager(ctx, mgr); err != nil {
			return err
		}
		return mgr.Start(ctx)
	}
}

// leaderElection makes a manager elect a leader through the lease id in
// ns, with short periods so a dead leader is replaced in seconds.
func leaderElection(opts *manager.Options, ns, id string) {
	opts.LeaderElection = true
	opts.LeaderElectionID = id
	opts.LeaderElectionNamespace = ns
	opts.LeaseDuration = ptr.To(4 * time.Second)
	opts.RenewDeadline = ptr.To(3 * time.Second)
	opts.RetryPeriod = ptr.To(500 * time.Millisecond)
}

// operatorLogger logs the operator's info lines and errors through t, at
// verbosity 0: detail would drown a failure's output.
func operatorLogger(t testing.TB) logr.Logger {
	return testkit.LoggerAt(t, 0)
}

// newCluster returns a SampleCluster named name in ns with roles, each
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

// clusterName is the name of the i-th cluster of a scenario.
func clusterName(i int) string { return fmt.Sprintf("c-%02d", i) }
