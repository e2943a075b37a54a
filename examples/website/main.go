// Command website is the example website operator: an opkit component
// reconciler that renders a Helm chart and a kustomization (both
// embedded) from each Website resource. It runs against any cluster the
// kubeconfig names:
//
//	go run ./examples/website --kubeconfig ~/.kube/config
//
// with the Website CRD installed (kubectl apply --server-side -k
// examples/website/config/crd), or in the cluster, deployed from
// examples/website/config/default. The flags are the usual ones of a
// controller-runtime manager.
//
// The same binary is its users' command line, with their kubeconfig:
// "website plan -f website.yaml" shows what the operator would change,
// "website template -f website.yaml" the objects it would apply, "website
// status NAME" a resource's conditions and objects (package
// github.com/opkit-dev/opkit/reconciler/cli).
//
// With --shard-member (and --shard-namespace) the replicas share the
// Websites instead of electing a leader: each is a member of a ring of
// Leases (package github.com/opkit-dev/opkit/shard) and reconciles its
// share; config/sharded deploys three replicas that way.
//
// Metrics are served over HTTPS by default, only to callers the API server
// authenticates (TokenReview) and allows to get /metrics
// (SubjectAccessReview); the certificate is self-signed unless
// --metrics-cert-dir names one.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	"github.com/opkit-dev/opkit/examples/website/operator"
	"github.com/opkit-dev/opkit/reconciler/cli"
	"github.com/opkit-dev/opkit/shard"
)

// flags are the command line's settings.
type flags struct {
	metricsAddr, metricsCertDir string
	secureMetrics               bool
	probeAddr                   string
	leaderElect                 bool
	leaderElectionNamespace     string
	shardMember, shardNamespace string
}

func main() {
	// The users' commands (plan, template, status) run in place of the
	// operator when the first argument names one.
	if code, ok := userCommand(os.Args[1:]); ok {
		os.Exit(code)
	}
	var f flags
	flag.StringVar(&f.metricsAddr, "metrics-bind-address", ":8443", "address the metrics endpoint binds to; 0 disables it")
	flag.BoolVar(&f.secureMetrics, "metrics-secure", true, "serve metrics over HTTPS to authenticated and authorized callers only; false serves plain HTTP to anyone")
	flag.StringVar(&f.metricsCertDir, "metrics-cert-dir", "", "directory holding the metrics endpoint's tls.crt and tls.key; empty means a self-signed certificate")
	flag.StringVar(&f.probeAddr, "health-probe-bind-address", ":8081", "address the health probes bind to")
	flag.BoolVar(&f.leaderElect, "leader-elect", false, "elect a leader, so only one replica of the operator is active")
	flag.StringVar(&f.leaderElectionNamespace, "leader-election-namespace", "", "namespace of the leader election lease; empty means the operator's own namespace, when it runs in a cluster")
	flag.StringVar(&f.shardMember, "shard-member", "", "this replica's name in the ring of replicas that share the Websites (usually the pod's name); empty means no sharding")
	flag.StringVar(&f.shardNamespace, "shard-namespace", "", "namespace of the ring's Leases (usually the operator's own); required with --shard-member")
	logOpts := zap.Options{}
	logOpts.BindFlags(flag.CommandLine)
	flag.Parse() // --kubeconfig is registered by controller-runtime

	log := zap.New(zap.UseFlagOptions(&logOpts))
	ctrl.SetLogger(log) //nolint:forbidigo // an operator's main gives controller-runtime the process's logger
	if err := run(f, log); err != nil {
		log.Error(err, "website operator stopped")
		os.Exit(1)
	}
}

// userCommand runs the command args name, if they name one of package
// cli's, with the user's kubeconfig.
func userCommand(args []string) (int, bool) {
	r, err := operator.New(operator.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitError, true
	}
	cmd := cli.ForComponent(r, cli.Options{Scheme: operator.Scheme()})
	if !cmd.Handles(args) {
		return 0, false
	}
	return cmd.Run(ctrl.SetupSignalHandler(), args), true
}

func run(f flags, log logr.Logger) error {
	if err := f.check(); err != nil {
		return err
	}
	ctx := ctrl.SetupSignalHandler()
	cfg := ctrl.GetConfigOrDie()
	member, err := f.member(cfg)
	if err != nil {
		return err
	}
	opts := operator.Options{}
	if member != nil {
		opts.Sharding = member
	}
	r, err := operator.New(opts)
	if err != nil {
		return err
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	metrics := metricsserver.Options{BindAddress: f.metricsAddr, SecureServing: f.secureMetrics, CertDir: f.metricsCertDir}
	if f.secureMetrics {
		// Authentication and authorization by the API server: the
		// operator's account may create TokenReviews and
		// SubjectAccessReviews, a scraper's may get /metrics.
		metrics.FilterProvider = filters.WithAuthenticationAndAuthorization
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  operator.Scheme(),
		Cache:                   cacheOpts,
		Client:                  clientOpts,
		Metrics:                 metrics,
		HealthProbeBindAddress:  f.probeAddr,
		LeaderElection:          f.leaderElect,
		LeaderElectionID:        operator.Name,
		LeaderElectionNamespace: f.leaderElectionNamespace,
		// Runnables, the shard member among them, log through their
		// context's logger.
		BaseContext: func() context.Context { return logr.NewContext(context.Background(), log) },
	})
	if err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return err
	}
	if err := r.SetupWithManager(ctx, mgr); err != nil {
		return err
	}
	if member == nil {
		return mgr.Start(ctx)
	}
	if err := mgr.Add(member); err != nil {
		return err
	}
	// Ready once the replica is a live member of the ring: before, the
	// others may still take the Websites the ring would give it.
	if err := mgr.AddReadyzCheck("shard", func(*http.Request) error {
		if !member.Live() {
			return fmt.Errorf("not a live member of ring %q yet", operator.ShardRing)
		}
		return nil
	}); err != nil {
		return err
	}
	// The Lease goes once the passes have ended, so the other replicas
	// take this one's share at once instead of after its expiry.
	err = mgr.Start(ctx)
	return errors.Join(err, member.Release(context.Background()))
}

// check refuses flags that contradict each other, naming them.
func (f flags) check() error {
	switch {
	case f.shardMember != "" && f.leaderElect:
		return errors.New("--shard-member and --leader-elect exclude each other: sharded replicas all work, each on its share")
	case f.shardMember != "" && f.shardNamespace == "":
		return errors.New("--shard-member needs --shard-namespace, the namespace of the ring's Leases")
	case f.shardMember == "" && f.shardNamespace != "":
		return errors.New("--shard-namespace is set but --shard-member is not: no sharding without a member name")
	}
	return nil
}

// member returns the replica's member of the ring, nil without
// --shard-member.
func (f flags) member(cfg *rest.Config) (*shard.Member, error) {
	if f.shardMember == "" {
		return nil, nil //nolint:nilnil // no sharding is not an error
	}
	c, err := client.New(cfg, client.Options{Scheme: operator.Scheme()})
	if err != nil {
		return nil, err
	}
	return shard.New(c, c, shard.Options{
		Ring: operator.ShardRing, Member: f.shardMember, Namespace: f.shardNamespace,
		Resources: []schema.GroupVersionKind{v1alpha1.GroupVersion.WithKind("Website")},
	})
}
