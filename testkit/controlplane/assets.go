package controlplane

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
// for them, or not whole. Tests treat it as "environment not prepared": they
// skip locally and fail under CI.
type AssetsError struct {
	// Dir is the directory that was searched.
	Dir string
	// Missing lists the files not found in Dir, sorted.
	Missing []string
	// Incomplete lists, sorted, the files whose build did not finish: no
	// build record, or a size other than the recorded one (a binary
	// truncated by an interrupted build, say). Such a file is never run.
	Incomplete []string
}

// Error implements error.
func (e *AssetsError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, fmt.Sprintf("missing %v", e.Missing))
	}
	if len(e.Incomplete) > 0 {
		parts = append(parts, fmt.Sprintf("incomplete %v", e.Incomplete))
	}
	return fmt.Sprintf("control-plane assets in %s: %s; run `make k8s-assets` (or point %s at a directory holding them)",
		e.Dir, strings.Join(parts, ", "), AssetsEnv)
}

// IsAssetsError reports whether err is or wraps an *AssetsError.
func IsAssetsError(err error) bool {
	var ae *AssetsError
	return errors.As(err, &ae)
}

// CheckAssets reports, as an *AssetsError, the files that Start with these
// options would need and cannot use: missing ones, and in a directory built
// by `make k8s-assets` (which keeps a record of each file it built, in
// .stamps), those without a record or whose size differs from it. A
// directory filled by other means, without any record, is taken as it is.
func (o Options) CheckAssets() error {
	dir := o.AssetsDir
	if dir == "" {
		var err error
		if dir, err = AssetsDir(); err != nil {
			return err
		}
	}
	need := apiServerAssets
	if o.Controllers {
		need = append(slices.Clone(need), controllersAssets...)
	}
	return checkAssets(dir, need)
}

// stampsDir is where the build keeps its record of each file.
const stampsDir = ".stamps"

func checkAssets(dir string, names []string) error {
	_, err := os.Stat(filepath.Join(dir, stampsDir))
	recorded := err == nil
	e := &AssetsError{Dir: dir}
	for _, name := range names {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			e.Missing = append(e.Missing, name)
			continue
		}
		if !recorded {
			continue
		}
		if why := incomplete(filepath.Join(dir, stampsDir, name), info.Size()); why != "" {
			e.Incomplete = append(e.Incomplete, name+" ("+why+")")
		}
	}
	if len(e.Missing) == 0 && len(e.Incomplete) == 0 {
		return nil
	}
	slices.Sort(e.Missing)
	slices.Sort(e.Incomplete)
	return e
}

// incomplete compares a file's size with the last line of its build
// record, "size <bytes>", and says what is wrong, if anything.
func incomplete(stamp string, size int64) string {
	b, err := os.ReadFile(stamp)
	if err != nil {
		return "no record of a finished build"
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	want, err := strconv.ParseInt(strings.TrimPrefix(lines[len(lines)-1], "size "), 10, 64)
	if err != nil {
		return "unreadable build record"
	}
	if want != size {
		return fmt.Sprintf("%d bytes, its build recorded %d", size, want)
	}
	return ""
}
