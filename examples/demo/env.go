package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"

	kafkaapi "github.com/opkit-dev/opkit/examples/kafka/api"
	"github.com/opkit-dev/opkit/examples/kafka/operator"
	websiteapi "github.com/opkit-dev/opkit/examples/website/api"
	websitev1alpha1 "github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	website "github.com/opkit-dev/opkit/examples/website/operator"
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
	webCRDs, err := websiteapi.CRDs()
	if err != nil {
		return nil, nil, err
	}
	scheme := operator.Scheme()
	utilruntime.Must(websitev1alpha1.AddToScheme(scheme))
	cp, err := controlplane.Start(ctx, controlplane.Options{Controllers: true, CRDs: append(crds, webCRDs...), Scheme: scheme})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the control plane: %w", err)
	}
	e := &env{cp: cp, client: cp.Client, count: apicount.New(), ns: demoNamespace}
	if err := e.prepare(ctx); err != nil {
		return nil, nil, errorsJoinStop(err, cp)
	}

	// One manager per operator, in this one process: each caches only the
	// objects its own owner label marks.
	kafkaMgr, err := e.kafkaManager(ctx, logs)
	if err != nil {
		return nil, nil, errorsJoinStop(err, cp)
	}
	webMgr, err := e.websiteManager(ctx, logs)
	if err != nil {
		return nil, nil, errorsJoinStop(err, cp)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 2)
	for _, m := range []ctrl.Manager{kafkaMgr, webMgr} {
		go func() { done <- m.Start(mctx) }()
	}
	stop := func() error {
		cancel()
		merr := errors.Join(<-done, <-done)
		if err := cp.Stop(); err != nil {
			return err
		}
		return merr
	}
	return e, stop, nil
}

// newManager returns a manager on the control plane whose requests are
// counted.
func (e *env) newManager(logs io.Writer, scheme *runtime.Scheme, cacheOpts cache.Options, clientOpts client.Options) (ctrl.Manager, error) {
	rc := e.cp.RESTConfig()
	rc.Wrap(e.count.WrapTransport)
	return ctrl.NewManager(rc, ctrl.Options{
		Scheme:  scheme,
		Cache:   cacheOpts,
		Client:  clientOpts,
		Metrics: metricsserver.Options{BindAddress: "0"},
		Logger:  operatorLogger(logs),
	})
}

func (e *env) kafkaManager(ctx context.Context, logs io.Writer) (ctrl.Manager, error) {
	r, err := operator.New(operator.Options{})
	if err != nil {
		return nil, err
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := e.newManager(logs, operator.Scheme(), cacheOpts, clientOpts)
	if err != nil {
		return nil, err
	}
	return mgr, r.SetupWithManager(ctx, mgr)
}

func (e *env) websiteManager(ctx context.Context, logs io.Writer) (ctrl.Manager, error) {
	r, err := website.New(website.Options{})
	if err != nil {
		return nil, err
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := e.newManager(logs, website.Scheme(), cacheOpts, clientOpts)
	if err != nil {
		return nil, err
	}
	return mgr, r.SetupWithManager(ctx, mgr)
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
	}, funcr.Options{Verbosity: 1})
}

func errorsJoinStop(err error, cp *controlplane.ControlPlane) error {
	if serr := cp.Stop(); serr != nil {
		return fmt.Errorf("%w (stopping the control plane: %w)", err, serr)
	}
	return err
}
