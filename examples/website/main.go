// Command website is the example website operator: an opkit component
// reconciler that renders a Helm chart and a kustomization (both
// embedded) from each Website resource. It runs against any cluster the
// kubeconfig names:
//
//	go run ./examples/website --kubeconfig ~/.kube/config
//
// with the Website CRD installed (kubectl apply -f
// examples/website/api/crd/).
package main

import (
	"flag"
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/examples/website/operator"
)

func main() {
	var (
		metricsAddr, probeAddr string
		leaderElect            bool
	)
	flag.StringVar(&metricsAddr, "metrics-bind-address", ":8080", "address the metrics endpoint binds to; 0 disables it")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "address the health probes bind to")
	flag.BoolVar(&leaderElect, "leader-elect", false, "elect a leader, so only one replica of the operator is active")
	logOpts := zap.Options{}
	logOpts.BindFlags(flag.CommandLine)
	flag.Parse() // --kubeconfig is registered by controller-runtime

	log := zap.New(zap.UseFlagOptions(&logOpts))
	ctrl.SetLogger(log) //nolint:forbidigo // an operator's main gives controller-runtime the process's logger
	if err := run(metricsAddr, probeAddr, leaderElect); err != nil {
		log.Error(err, "website operator stopped")
		os.Exit(1)
	}
}

func run(metricsAddr, probeAddr string, leaderElect bool) error {
	r, err := operator.New(operator.Options{})
	if err != nil {
		return err
	}
	cacheOpts, clientOpts := operator.ManagerOptions()
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                 operator.Scheme(),
		Cache:                  cacheOpts,
		Client:                 clientOpts,
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress: probeAddr,
		LeaderElection:         leaderElect,
		LeaderElectionID:       operator.Name,
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
	if err := r.SetupWithManager(mgr); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
