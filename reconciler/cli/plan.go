package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
)

// plan plans every resource of the file and prints the plans.
func (c *Command) plan(ctx context.Context, f flags) (int, error) {
	objs, err := c.connect(ctx, f)
	if err != nil {
		return ExitError, err
	}
	reports := make([]report, 0, len(objs))
	var errs []error
	for _, obj := range objs {
		r, err := c.t.plan(ctx, obj)
		r.Resource = client.ObjectKeyFromObject(obj)
		reports = append(reports, r)
		if err != nil {
			errs = append(errs, fmt.Errorf("the plan of %s is not complete: %w", r.Resource, err))
		}
	}
	if f.output == "json" {
		err = writeJSON(c.opts.Stdout, planJSON(reports, errs))
	} else {
		err = c.writePlans(reports)
	}
	if all := errors.Join(append(errs, err)...); all != nil {
		return ExitError, all
	}
	if slices.ContainsFunc(reports, func(r report) bool { return r.hasChanges }) {
		return ExitChanges, nil
	}
	return ExitNoChanges, nil
}

// connect loads the file and starts the planning manager in the
// namespace of its resources.
func (c *Command) connect(ctx context.Context, f flags) ([]client.Object, error) {
	rc, ns, err := c.cluster(f)
	if err != nil {
		return nil, err
	}
	objs, _, err := c.load(f, ns, false)
	if err != nil {
		return nil, err
	}
	var namespaces []string
	for _, o := range objs {
		namespaces = append(namespaces, o.GetNamespace())
	}
	slices.Sort(namespaces)
	if namespaces = slices.Compact(namespaces); len(namespaces) > 1 {
		return nil, &InputError{File: f.files.label(), Err: fmt.Errorf("the resources are in %d namespaces (%s): give one namespace's at a time",
			len(namespaces), strings.Join(namespaces, ", "))}
	}
	return objs, c.start(ctx, rc, namespaces[0])
}

// writePlans prints each plan: a diff per object that would change, in
// the order the passes change them, then what the passes would report.
func (c *Command) writePlans(reports []report) error {
	w := &textWriter{w: c.opts.Stdout}
	for _, r := range reports {
		kind := "new"
		if r.Exists {
			kind = "existing"
		}
		w.printf("# %s (%s): %s\n", r.Resource, kind, summary(r))
		for _, n := range r.Notes {
			w.printf("# %s\n", n)
		}
		for _, ch := range r.Changes {
			if ch.Action == apply.PlanUnchanged && ch.Err == nil {
				continue
			}
			w.printf("# %s\n", headline(ch))
			if ch.Live != nil || ch.Desired != nil {
				if err := w.diff(ch); err != nil {
					return err
				}
			}
		}
		for _, g := range r.Retired {
			w.printf("# retire role group %s/%s: %s\n", g.Role, g.Group, g.Stage)
			for _, a := range g.Actions {
				w.printf("#   %s\n", a)
			}
		}
		for _, cond := range r.Conditions {
			line := fmt.Sprintf("# condition %s=%s %s", cond.Type, cond.Status, cond.Reason)
			if msg := oneLine(cond.Message); msg != "" {
				line += ": " + msg
			}
			w.printf("%s\n", line)
		}
		for _, e := range r.Events {
			w.printf("# event %s %s: %s\n", e.Type, e.Reason, oneLine(e.Message))
		}
		for _, m := range r.Warnings {
			w.printf("# warning %s\n", oneLine(m))
		}
	}
	return w.err
}

// headline says what happens to one object, and why.
func headline(ch change) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", ch.Action, refString(ch))
	if ch.Scope != "" {
		fmt.Fprintf(&b, " (%s)", ch.Scope)
	}
	if ch.Transient {
		b.WriteString(", transient")
	}
	if ch.Cause != "" {
		fmt.Fprintf(&b, ": %s", ch.Cause)
	}
	if ch.Reason != "" {
		fmt.Fprintf(&b, ": %s", oneLine(ch.Reason))
	}
	if ch.Err != nil {
		fmt.Fprintf(&b, ": not planned: %s", oneLine(ch.Err.Error()))
	} else if !ch.Verified && (ch.Action == apply.PlanCreate || ch.Action == apply.PlanUpdate || ch.Action == apply.PlanRecreate) {
		b.WriteString(" (not verified by a dry run)")
	}
	return b.String()
}

func refString(ch change) string {
	o := ch.Object
	kind := o.Kind
	if o.Group != "" {
		kind += "." + o.Group
	}
	if o.Namespace == "" {
		return kind + " " + o.Name
	}
	return kind + " " + o.Namespace + "/" + o.Name
}

// summary counts the changes by action.
func summary(r report) string {
	counts := map[apply.PlanAction]int{}
	for _, ch := range r.Changes {
		counts[ch.Action]++
	}
	var parts []string
	for _, a := range []apply.PlanAction{apply.PlanCreate, apply.PlanUpdate, apply.PlanRecreate, apply.PlanDelete,
		apply.PlanOrphan, apply.PlanRelease, apply.PlanBlocked} {
		if counts[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[a], a))
		}
	}
	if n := len(r.Retired); n > 0 {
		parts = append(parts, fmt.Sprintf("%d role group(s) retiring", n))
	}
	if len(parts) == 0 && !r.hasChanges {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
