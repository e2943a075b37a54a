package main

import (
	"context"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"

	kafkaapi "github.com/opkit-dev/opkit/examples/kafka/api"
	"github.com/opkit-dev/opkit/examples/kafka/operator"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// env is the running demo: the control plane, a client for the script and
// the operators' manager, whose requests are counted.
type env struct {
	cp     *controlplane.ControlPlane
	client client.Client
	count  *apicount.Counter
	ns     string
}

// demoNamespace is where the sample resources live.
const demoNamespace = "demo"

// start starts the control plane with controllers, installs the CRDs,
// provides volumes for the data claims and runs both operators in one
// manager until ctx ends.
func start(ctx context.Context, logs io.Writer) (*env, func() error, error) {
	crds, err := kafkaapi.CRDs()
	if err != nil {
		return nil, nil, err
	}
	scheme := operator.Scheme()
	cp, err := controlplane.Start(ctx, controlplane.Options{Controllers: true, CRDs: crds, Scheme: scheme})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the control plane: %w", err)
	}
	e := &env{cp: cp, client: cp.Client, count: apicount.New(), ns: demoNamespace}
	if err := e.prepare(ctx); err != nil {
		return nil, nil, errorsJoinStop(err, cp)
	}

	cfg, err := operator.Config(operator.Options{})
	if err != nil {
		return nil, nil, errorsJoinStop(err, cp)
	}
	rc := cp.RESTConfig()
	rc.Wrap(e.count.WrapTransport)
	cacheOpts, clientOpts := cfg.ManagerOptions()
	mgr, err := ctrl.NewManager(rc, ctrl.Options{
		Scheme:  scheme,
		Cache:   cacheOpts,
		Client:  clientOpts,
		Metrics: metricsserver.Options{BindAddress: "0"},
		Logger:  operatorLogger(logs),
	})
	if err != nil {
		return nil, nil, errorsJoinStop(err, cp)
	}
	if err := operator.Setup(mgr, cfg); err != nil {
		return nil, nil, errorsJoinStop(err, cp)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	stop := func() error {
		cancel()
		merr := <-done
		if err := cp.Stop(); err != nil {
			return err
		}
		return merr
	}
	return e, stop, nil
}

// prepare creates the demo namespace and the volumes the data claims bind
// to (the embedded control plane has no storage provisioner).
func (e *env) prepare(ctx context.Context) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: e.ns}}
	if err := e.client.Create(ctx, ns); err != nil {
		return err
	}
	for i := range 24 {
		pv := &corev1.PersistentVolume{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("demo-volume-%02d", i)},
			Spec: corev1.PersistentVolumeSpec{
				Capacity:                      corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")},
				AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
				PersistentVolumeSource:        corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: fmt.Sprintf("/var/demo/%02d", i)}},
			},
		}
		if err := e.client.Create(ctx, pv); err != nil {
			return err
		}
	}
	return nil
}

// operatorLogger writes the operators' log lines (info at V(0), errors) to
// w, so the terminal shows the script and a file keeps the details.
func operatorLogger(w io.Writer) logr.Logger {
	return funcr.New(func(prefix, args string) {
		fmt.Fprintf(w, "%s %s %s\n", time.Now().Format(time.TimeOnly), prefix, args)
	}, funcr.Options{})
}

func errorsJoinStop(err error, cp *controlplane.ControlPlane) error {
	if serr := cp.Stop(); serr != nil {
		return fmt.Errorf("%w (stopping the control plane: %v)", err, serr)
	}
	return err
}
