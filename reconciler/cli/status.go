package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// status prints the conditions and the inventories of the named
// resources, read afresh with the user's identity.
func (c *Command) status(ctx context.Context, f flags) error {
	rc, ns, err := c.cluster(f)
	if err != nil {
		return err
	}
	cl, err := c.reader(rc)
	if err != nil {
		return fmt.Errorf("connecting to the cluster: %w", err)
	}
	var views []statusJSON
	for _, name := range f.names {
		obj, err := c.t.newObject()
		if err != nil {
			return err
		}
		gvk, err := apiutil.GVKForObject(obj, c.opts.Scheme)
		if err != nil {
			return err
		}
		key := client.ObjectKey{Namespace: ns, Name: name}
		if err := cl.Get(ctx, key, obj); err != nil {
			if apierrors.IsNotFound(err) {
				return fmt.Errorf("%s %s not found", gvk.Kind, key)
			}
			return fmt.Errorf("reading %s %s: %w", gvk.Kind, key, err)
		}
		v := c.t.status(obj)
		if f.output == "json" {
			views = append(views, statusOf(key, gvk.Kind, v))
			continue
		}
		if err := c.writeStatus(gvk.Kind, key, v); err != nil {
			return err
		}
	}
	if f.output == "json" {
		return writeJSON(c.opts.Stdout, views)
	}
	return nil
}

func (c *Command) writeStatus(kind string, key client.ObjectKey, v statusView) error {
	w := &textWriter{w: c.opts.Stdout}
	w.printf("%s %s\n", kind, key)
	for _, s := range v.Summary {
		w.printf("  %s\n", s)
	}
	tw := tabwriter.NewWriter(c.opts.Stdout, 0, 4, 2, ' ', 0)
	w.w = tw
	w.printf("\nCONDITION\tSTATUS\tREASON\tMESSAGE\n")
	for _, cond := range v.Conditions {
		w.printf("%s\t%s\t%s\t%s\n", cond.Type, cond.Status, cond.Reason, oneLine(cond.Message))
	}
	w.printf("\nSCOPE\tOBJECT\tPHASE\tSTATUS\n")
	for _, s := range v.Scopes {
		for _, it := range s.Items {
			kind := it.Kind
			if it.Group != "" {
				kind += "." + it.Group
			}
			name := it.Name
			if it.Namespace != "" && it.Namespace != key.Namespace {
				name = it.Namespace + "/" + name
			}
			w.printf("%s\t%s %s\t%s\t%s\n", orDash(s.Scope), kind, name, it.EffectivePhase(), it.EffectiveStatus())
		}
	}
	if w.err == nil {
		w.err = tw.Flush()
	}
	return w.err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

type (
	statusJSON struct {
		Kind       string          `json:"kind"`
		Namespace  string          `json:"namespace"`
		Name       string          `json:"name"`
		Summary    []string        `json:"summary"`
		Conditions []conditionJSON `json:"conditions"`
		Objects    []itemJSON      `json:"objects"`
	}
	itemJSON struct {
		Scope      string `json:"scope,omitempty"`
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Namespace  string `json:"namespace,omitempty"`
		Name       string `json:"name"`
		Phase      string `json:"phase"`
		Status     string `json:"status"`
	}
)

func statusOf(key client.ObjectKey, kind string, v statusView) statusJSON {
	out := statusJSON{Kind: kind, Namespace: key.Namespace, Name: key.Name, Summary: v.Summary,
		Conditions: conditionsJSON(v.Conditions), Objects: []itemJSON{}}
	for _, s := range v.Scopes {
		for _, it := range s.Items {
			out.Objects = append(out.Objects, itemJSON{Scope: s.Scope, APIVersion: it.Ref().GroupVersionKind().GroupVersion().String(), Kind: it.Kind,
				Namespace: it.Namespace, Name: it.Name, Phase: string(it.EffectivePhase()), Status: it.EffectiveStatus()})
		}
	}
	return out
}
