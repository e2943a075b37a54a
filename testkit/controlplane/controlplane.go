package controlplane

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// ControlPlane is a running control plane. Stop it when done.
type ControlPlane struct {
	// Config reaches the API server as a cluster administrator, with a
	// client-side rate limit of 1000 requests/s (burst 2000) so tests are
	// never throttled by client-go's defaults. Treat it as read-only;
	// RESTConfig returns a copy to modify.
	Config *rest.Config
	// Client is an uncached client using Config and Options.Scheme.
	Client client.WithWatch
	// KubeconfigPath is a kubeconfig file for the same administrator.
	KubeconfigPath string
	// LogDir holds one log file per process.
	LogDir string
	// Controllers reports whether controllers, scheduler and kwok run.
	Controllers bool

	env *envtest.Environment
	// runDir holds the certificates, etcd's data and the processes'
	// kubeconfig; every process's command line names a path in it, which
	// is how the watchdog and RestartAPIServer find them.
	runDir     string
	certDir    string
	watchdog   *watchdog
	restartMu  sync.Mutex
	procs      []*process
	logFiles   []string
	openFiles  []*os.File
	removeDir  bool
	stopOnce   sync.Once
	stopResult error
}

// Start starts a control plane as opts describes and waits until every part
// of it is serving. The context bounds the whole start.
func Start(ctx context.Context, opts Options) (*ControlPlane, error) {
	if err := opts.CheckAssets(); err != nil {
		return nil, err
	}
	dir := opts.AssetsDir
	if dir == "" {
		dir, _ = AssetsDir() // CheckAssets found it
	}

	cp := &ControlPlane{LogDir: opts.LogDir, Controllers: opts.Controllers}
	if cp.LogDir == "" {
		tmp, err := os.MkdirTemp("", "opkit-controlplane-")
		if err != nil {
			return nil, fmt.Errorf("creating the log directory: %w", err)
		}
		cp.LogDir, cp.removeDir = tmp, true
	} else if err := os.MkdirAll(cp.LogDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the log directory: %w", err)
	}

	if err := cp.start(ctx, dir, opts); err != nil {
		// Keep the logs: the error names them.
		cp.removeDir = false
		_ = cp.Stop()
		return nil, fmt.Errorf("%w (logs: %s)", err, cp.describeLogs())
	}
	return cp, nil
}

func (cp *ControlPlane) start(ctx context.Context, dir string, opts Options) error {
	scheme := opts.Scheme
	if scheme == nil {
		scheme = runtime.NewScheme()
		utilruntime.Must(clientgoscheme.AddToScheme(scheme))
		utilruntime.Must(apiextensionsv1.AddToScheme(scheme))
	}

	etcdLog, err := cp.openLog("etcd")
	if err != nil {
		return err
	}
	apiLog, err := cp.openLog("kube-apiserver")
	if err != nil {
		return err
	}
	if err := cp.makeRunDir(); err != nil {
		return err
	}
	// The API server's certificates live in a directory of ours, so that
	// RestartAPIServer serves the same ones again (envtest would make new
	// ones in a new directory, which no existing client trusts).
	api := &envtest.APIServer{Path: filepath.Join(dir, "kube-apiserver"), CertDir: cp.certDir, Out: apiLog, Err: apiLog}
	api.Configure().Set("service-cluster-ip-range", defaultServiceRange)
	for _, name := range slices.Sorted(maps.Keys(opts.APIServerArgs)) {
		api.Configure().Set(name, opts.APIServerArgs[name]...)
	}
	cp.env = &envtest.Environment{
		ControlPlane: envtest.ControlPlane{
			APIServer: api,
			Etcd:      &envtest.Etcd{Path: filepath.Join(dir, "etcd"), DataDir: filepath.Join(cp.runDir, "etcd"), Out: etcdLog, Err: etcdLog},
		},
		Scheme:                   scheme,
		CRDs:                     opts.CRDs,
		CRDDirectoryPaths:        opts.CRDDirectoryPaths,
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: opts.startTimeout(),
		ControlPlaneStopTimeout:  20 * time.Second,
	}
	cfg, err := cp.env.Start()
	if err != nil {
		return fmt.Errorf("starting etcd and kube-apiserver: %w", err)
	}
	cp.Config = cfg
	cp.KubeconfigPath = filepath.Join(cp.LogDir, "kubeconfig")
	for _, path := range []string{cp.KubeconfigPath, cp.processKubeconfig()} {
		if err := os.WriteFile(path, cp.env.KubeConfig, 0o600); err != nil {
			return fmt.Errorf("writing the kubeconfig: %w", err)
		}
	}
	if cp.Client, err = client.NewWithWatch(cfg, client.Options{Scheme: scheme}); err != nil {
		return fmt.Errorf("creating the client: %w", err)
	}
	if !opts.Controllers {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, opts.startTimeout())
	defer cancel()
	return cp.startControllers(ctx, dir, opts.nodes())
}

// RESTConfig returns a copy of Config that the caller may modify, for
// example to wrap its transport.
func (cp *ControlPlane) RESTConfig() *rest.Config {
	return rest.CopyConfig(cp.Config)
}

// LogFiles returns the paths of the process logs, sorted.
func (cp *ControlPlane) LogFiles() []string {
	return slices.Sorted(slices.Values(cp.logFiles))
}

// Stop stops every process, controllers first, and removes the temporary
// log directory. It is safe to call more than once.
func (cp *ControlPlane) Stop() error {
	cp.stopOnce.Do(func() {
		var errs []error
		for _, p := range slices.Backward(cp.procs) {
			errs = append(errs, p.stop(10*time.Second))
		}
		if cp.env != nil {
			if err := cp.env.Stop(); err != nil {
				errs = append(errs, fmt.Errorf("stopping etcd and kube-apiserver: %w", err))
			}
		}
		for _, f := range cp.openFiles {
			_ = f.Close()
		}
		cp.watchdog.release()
		if cp.runDir != "" {
			errs = append(errs, os.RemoveAll(cp.runDir))
		}
		if cp.removeDir {
			errs = append(errs, os.RemoveAll(cp.LogDir))
		}
		cp.stopResult = errors.Join(errs...)
	})
	return cp.stopResult
}

// makeRunDir creates the run directory and starts the watchdog that kills
// every process naming it once this process is gone.
func (cp *ControlPlane) makeRunDir() error {
	dir, err := os.MkdirTemp("", "opkit-controlplane-")
	if err != nil {
		return fmt.Errorf("creating the control plane's run directory: %w", err)
	}
	cp.runDir = dir
	cp.certDir = filepath.Join(dir, "certs")
	if err := os.Mkdir(cp.certDir, 0o700); err != nil {
		return fmt.Errorf("creating the API server's certificate directory: %w", err)
	}
	// The trailing separator keeps one run directory from matching
	// another whose name it prefixes.
	if cp.watchdog, err = startWatchdog(dir + string(filepath.Separator)); err != nil {
		return err
	}
	return nil
}

// processKubeconfig is the kubeconfig the controllers and kwok are given:
// a path in the run directory, so that the watchdog finds them.
func (cp *ControlPlane) processKubeconfig() string {
	return filepath.Join(cp.runDir, "kubeconfig")
}

func (cp *ControlPlane) openLog(name string) (io.Writer, error) {
	path := filepath.Join(cp.LogDir, name+".log")
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("creating log file for %s: %w", name, err)
	}
	cp.logFiles = append(cp.logFiles, path)
	cp.openFiles = append(cp.openFiles, f)
	return f, nil
}

func (cp *ControlPlane) describeLogs() string {
	if len(cp.logFiles) == 0 {
		return cp.LogDir
	}
	return fmt.Sprint(cp.LogFiles())
}
