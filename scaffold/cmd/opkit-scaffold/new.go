package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/go-logr/logr"

	"github.com/opkit-dev/opkit/scaffold"
)

const usage = `usage: opkit-scaffold new --type product|component --name NAME --module PATH
                          --group GROUP --kind KIND [--version VERSION] [--dir DIR]
                          [--opkit-path PATH | --opkit-version VERSION] [--no-run]

Generates an operator project built on opkit in DIR (default: NAME), then
runs go mod tidy, go generate (deep copies, CRD, RBAC) and go build in it.
`

// run parses the command line and generates the project.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "new" {
		fmt.Fprint(stderr, usage)
		return errors.New(`the only command is "new"`)
	}
	o, err := parse(args[1:], stderr)
	if err != nil {
		return err
	}
	ctx = logr.NewContext(ctx, logr.New(progress{w: stderr}))
	dir, err := scaffold.Generate(ctx, o)
	if err != nil {
		return err
	}
	next := "make test"
	if o.NoRun {
		next = "go mod tidy && make manifests"
	}
	fmt.Fprintf(stdout, "%s: a %s operator for %s.%s; next: cd %s && %s\n", dir, o.Type, o.Kind, o.Group, dir, next)
	return nil
}

// parse reads the flags of command new into Options.
func parse(args []string, stderr io.Writer) (scaffold.Options, error) {
	var o scaffold.Options
	fs := flag.NewFlagSet("opkit-scaffold new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage+"\nflags:\n")
		fs.PrintDefaults()
	}
	fs.Func("type", "the operator's type: product (role groups, opkit's product reconciler) or component (Go templates, opkit's component reconciler)", func(s string) error {
		o.Type = scaffold.Type(s)
		return nil
	})
	fs.StringVar(&o.Name, "name", "", "the project's name, a DNS-1035 label such as zookeeper-operator: the binary, the image and the prefix of what config/default deploys")
	fs.StringVar(&o.Module, "module", "", "the project's Go module path, such as example.com/zookeeper-operator")
	fs.StringVar(&o.Group, "group", "", "the resource's API group, such as zookeeper.example.com")
	fs.StringVar(&o.Version, "version", scaffold.DefaultVersion, "the resource's API version")
	fs.StringVar(&o.Kind, "kind", "", "the resource's kind, UpperCamelCase, such as ZookeeperCluster")
	fs.StringVar(&o.Dir, "dir", "", "the directory to write the project to, absent or empty (default: the name)")
	fs.StringVar(&o.OpkitPath, "opkit-path", "", "a checkout of opkit: the project's go.mod replaces every opkit module it needs with the checkout's directory of it")
	fs.StringVar(&o.OpkitVersion, "opkit-version", "", "the opkit release the project requires, such as v0.3.0 (default: the scaffold's own release)")
	fs.BoolVar(&o.NoRun, "no-run", false, "write the files only: no go mod tidy, code generation or build")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q: every value is a flag", fs.Args())
	}
	return o, nil
}
