package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// The exit codes of the commands, those of kubectl diff.
const (
	// ExitNoChanges: the command succeeded; for plan, nothing would
	// change.
	ExitNoChanges = 0
	// ExitChanges: plan found changes.
	ExitChanges = 1
	// ExitError: the command failed (bad arguments or input, a refused
	// request, an incomplete plan).
	ExitError = 2
)

// Command is the set of commands of one reconciler: plan, template and
// status.
type Command struct {
	t    target
	opts Options
}

func newCommand(t target, opts Options) *Command {
	return &Command{t: t, opts: opts.withDefaults()}
}

// names are the commands, sorted.
var names = []string{"plan", "status", "template"}

// Handles reports whether args (the process's arguments without the
// program's name) name one of the commands: main runs Run when it does,
// the manager otherwise.
func (c *Command) Handles(args []string) bool {
	return len(args) > 0 && slices.Contains(names, args[0])
}

// Run runs the command args name (args[0] is "plan", "template" or
// "status") and returns the process's exit code: ExitNoChanges,
// ExitChanges (plan) or ExitError. Errors are written to Options.Stderr,
// each naming what failed (the file and document, the field, the verb on
// the resource the user's identity lacks).
func (c *Command) Run(ctx context.Context, args []string) int {
	code, err := c.run(ctx, args)
	if err != nil {
		_, _ = fmt.Fprintf(c.opts.Stderr, "%s: %v\n", c.opts.Name, err)
		if code < ExitError {
			code = ExitError
		}
	}
	return code
}

func (c *Command) run(ctx context.Context, args []string) (int, error) {
	if c.opts.Scheme == nil {
		return ExitError, errors.New("cli.Options.Scheme is required")
	}
	if !c.Handles(args) {
		c.usage(c.opts.Stderr)
		return ExitError, fmt.Errorf("unknown command %q: one of %s", strings.Join(args[:min(len(args), 1)], ""), strings.Join(names, ", "))
	}
	f, err := c.parse(args[0], args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitNoChanges, nil
		}
		return ExitError, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	switch args[0] {
	case "plan":
		return c.plan(ctx, f)
	case "template":
		return ExitNoChanges, c.template(ctx, f)
	default:
		return ExitNoChanges, c.status(ctx, f)
	}
}

// fileList is the files of repeated -f flags.
type fileList []string

// String joins the files.
func (l *fileList) String() string { return strings.Join(*l, ",") }

// Set adds a file.
func (l *fileList) Set(v string) error {
	if v == "" {
		return errors.New("an empty file name")
	}
	*l = append(*l, v)
	return nil
}

// label names the files in an error about them all.
func (l fileList) label() string { return strings.Join(l, ", ") }

// flags are a command's settings.
type flags struct {
	files               fileList
	output              string
	kubeconfig, context string
	namespace           string
	cluster             bool
	timeout             time.Duration
	names               []string
}

func (c *Command) parse(cmd string, args []string) (flags, error) {
	var f flags
	fs := flag.NewFlagSet(c.opts.Name+" "+cmd, flag.ContinueOnError)
	fs.SetOutput(c.opts.Stderr)
	if cmd != "status" {
		fs.Var(&f.files, "f", "a file holding the resource (YAML or JSON, several documents allowed); - reads standard input; may be repeated")
		fs.Var(&f.files, "filename", "same as -f")
	}
	if cmd == "template" {
		fs.BoolVar(&f.cluster, "cluster", false, "read the resource's status, references and lookups from the cluster, as the operator does (needs read rights); without it nothing but the file is read")
	}
	if cmd != "template" {
		fs.StringVar(&f.output, "o", "", "output format: empty for text, json")
		fs.StringVar(&f.output, "output", "", "same as -o")
	}
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "the kubeconfig file; empty means $KUBECONFIG or ~/.kube/config")
	fs.StringVar(&f.context, "context", "", "the kubeconfig context; empty means its current context")
	fs.StringVar(&f.namespace, "n", "", "the namespace of a resource that names none; empty means the context's")
	fs.StringVar(&f.namespace, "namespace", "", "same as -n")
	fs.DurationVar(&f.timeout, "timeout", c.opts.Timeout, "how long the command may work against the cluster")
	fs.Usage = func() { c.usageOf(fs, cmd) }
	// Flags may follow the arguments, as kubectl allows: "status NAME -n NS".
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return f, err
		}
		if rest = fs.Args(); len(rest) == 0 {
			break
		}
		f.names, rest = append(f.names, rest[0]), rest[1:]
	}
	switch {
	case cmd == "status" && len(f.names) == 0:
		return f, errors.New("status: name the resource: status NAME")
	case cmd != "status" && len(f.names) > 0:
		return f, fmt.Errorf("%s: unexpected argument %q: the resource comes from -f", cmd, f.names[0])
	case cmd != "status" && len(f.files) == 0:
		return f, fmt.Errorf("%s: -f is required", cmd)
	case f.output != "" && f.output != "json":
		return f, fmt.Errorf("%s: -o %q: the output is text (no -o) or json", cmd, f.output)
	case f.timeout <= 0:
		return f, fmt.Errorf("%s: --timeout must be positive", cmd)
	case c.opts.RESTConfig != nil && (f.kubeconfig != "" || f.context != ""):
		return f, fmt.Errorf("%s: --kubeconfig and --context are not accepted: this program names its cluster itself", cmd)
	case cmd == "template" && !f.cluster && (f.kubeconfig != "" || f.context != ""):
		return f, fmt.Errorf("%s: --kubeconfig and --context need --cluster: without it the file alone is read", cmd)
	}
	return f, nil
}

var about = map[string]string{
	"plan":     "show what the operator's next passes would do for the resource in a file, as a diff per object; writes nothing (server-side dry runs). Exit 0: no changes, 1: changes, 2: error",
	"template": "print the objects the operator's next pass would apply for the resource in a file, as YAML. Offline unless --cluster: the resource renders as a new one, and its references and lookups find the file's other documents alone; sends no write and no dry run",
	"status":   "print a resource's conditions and the objects its status records",
}

func (c *Command) usage(w io.Writer) {
	_, _ = fmt.Fprintf(w, "Usage: %s COMMAND [flags]\n\nCommands:\n", c.opts.Name)
	for _, n := range names {
		_, _ = fmt.Fprintf(w, "  %-9s %s\n", n, about[n])
	}
}

func (c *Command) usageOf(fs *flag.FlagSet, cmd string) {
	arg := "-f FILE"
	if cmd == "status" {
		arg = "NAME"
	}
	_, _ = fmt.Fprintf(c.opts.Stderr, "Usage: %s %s %s [flags]\n\n%s.\n\nFlags:\n", c.opts.Name, cmd, arg, about[cmd])
	fs.PrintDefaults()
}
