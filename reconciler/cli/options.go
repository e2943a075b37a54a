package cli

import (
	"io"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// Options configure the commands. The zero value of each field is
// documented; Scheme is required.
type Options struct {
	// Name is the command's name in usage and messages; empty means the
	// base name of the running program.
	Name string
	// Scheme knows the reconciled kind and every kind its objects are
	// (the operator's scheme). Required.
	Scheme *runtime.Scheme
	// Stdout and Stderr receive the output and the errors; nil means the
	// process's.
	Stdout, Stderr io.Writer
	// RESTConfig, when set, is the cluster to talk to, and the
	// --kubeconfig and --context flags are refused. Nil means the user's
	// kubeconfig, found as kubectl finds it (--kubeconfig, $KUBECONFIG,
	// ~/.kube/config, in-cluster).
	RESTConfig *rest.Config
	// Timeout bounds a command's work against the cluster when its
	// --timeout flag is not given; zero means two minutes.
	Timeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Name == "" && len(os.Args) > 0 {
		o.Name = baseName(os.Args[0])
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Minute
	}
	return o
}

func baseName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' || path[i] == '\\' {
			return path[i+1:]
		}
	}
	return path
}
