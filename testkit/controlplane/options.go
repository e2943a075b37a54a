package controlplane

import (
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Options configures Start. The zero value starts etcd and kube-apiserver
// from the default assets directory, with no controllers.
type Options struct {
	// AssetsDir holds the binaries. Empty means [AssetsDir]().
	AssetsDir string

	// Controllers also starts kube-controller-manager, kube-scheduler and kwok
	// with Nodes fake nodes. Without it no controller runs: a StatefulSet gets
	// no pods and nothing is garbage-collected.
	Controllers bool

	// Nodes is the number of kwok nodes started with Controllers. Zero means 3.
	Nodes int

	// CRDDirectoryPaths lists files or directories of CRD manifests to install
	// before Start returns. A path that does not exist is an error.
	CRDDirectoryPaths []string

	// CRDs are CRD objects to install before Start returns.
	CRDs []*apiextensionsv1.CustomResourceDefinition

	// Scheme is the scheme of the returned client. Nil means client-go's
	// built-in kinds plus apiextensions.k8s.io/v1.
	Scheme *runtime.Scheme

	// APIServerArgs sets kube-apiserver flags (names without leading dashes),
	// replacing the defaults of the same name. The default Service range is
	// 10.0.0.0/16, wide enough for tests with thousands of Services.
	APIServerArgs map[string][]string

	// LogDir receives one log file per process and the kubeconfig. Empty
	// means a new temporary directory, removed by Stop.
	LogDir string

	// StartTimeout bounds the start of each component and the readiness
	// checks. Zero means 90 seconds.
	StartTimeout time.Duration
}

// Defaults for the zero values of Options.
const (
	DefaultNodes        = 3
	DefaultStartTimeout = 90 * time.Second
	defaultServiceRange = "10.0.0.0/16"
	pollInterval        = 100 * time.Millisecond
)

func (o Options) nodes() int {
	if o.Nodes > 0 {
		return o.Nodes
	}
	return DefaultNodes
}

func (o Options) startTimeout() time.Duration {
	if o.StartTimeout > 0 {
		return o.StartTimeout
	}
	return DefaultStartTimeout
}
