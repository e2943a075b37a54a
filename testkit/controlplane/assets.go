package controlplane

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// AssetsVersion is the Kubernetes version whose binaries the default assets
// directory holds. It must match the k8s.io/kubernetes version pinned in
// hack/k8s-assets/go.mod; `make verify` checks that it does.
const AssetsVersion = "v1.37.2"

// AssetsEnv names the environment variable that overrides the assets
// directory, for tests and for `make k8s-assets` alike.
const AssetsEnv = "OPKIT_ASSETS"

// assetNames are the files Start needs; kwok's are needed only with
// controllers.
var (
	apiServerAssets   = []string{"etcd", "kube-apiserver"}
	controllersAssets = []string{"kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml"}
)

// AssetsDir returns the directory holding the control-plane binaries:
// $OPKIT_ASSETS when set, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/opkit/k8s/<AssetsVersion>.
func AssetsDir() (string, error) {
	if dir := os.Getenv(AssetsEnv); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locating the control-plane assets: %w (set %s)", err, AssetsEnv)
	}
	return filepath.Join(cache, "opkit", "k8s", AssetsVersion), nil
}

// AssetsError reports control-plane binaries that are not where Start looks
// for them. Tests treat it as "environment not prepared": they skip locally
// and fail under CI.
type AssetsError struct {
	// Dir is the directory that was searched.
	Dir string
	// Missing lists the files not found in Dir, sorted.
	Missing []string
}

// Error implements error.
func (e *AssetsError) Error() string {
	return fmt.Sprintf("control-plane assets missing in %s: %v; run `make k8s-assets` (or point %s at a directory holding them)",
		e.Dir, e.Missing, AssetsEnv)
}

// IsAssetsError reports whether err is or wraps an *AssetsError.
func IsAssetsError(err error) bool {
	var ae *AssetsError
	return errors.As(err, &ae)
}

// checkAssets returns an *AssetsError naming every file of names missing in dir.
func checkAssets(dir string, names ...[]string) error {
	var missing []string
	for _, group := range names {
		for _, name := range group {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		return &AssetsError{Dir: dir, Missing: missing}
	}
	return nil
}
