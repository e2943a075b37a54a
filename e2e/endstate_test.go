package e2e_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	gocmp "github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// endState is what a run leaves in its namespace: every object of the
// captured kinds, keyed "<Kind> <name>", normalized so that two runs in two
// namespaces compare field by field. What the API server assigns (UIDs,
// resource versions, timestamps, cluster IPs, managed fields) is dropped;
// the namespace's name and the cluster resources' UIDs, which appear in
// owner references, owner ids and messages, become placeholders; digests,
// which hash them, become a placeholder too (their consistency with the
// inventory is checked on its own, see inventoryProblems).
type endState map[string]map[string]any

// Keys returns the state's object keys, sorted.
func (s endState) Keys() []string { return slices.Sorted(maps.Keys(s)) }

// capturer captures one namespace's end state.
type capturer struct {
	// kinds are the kinds captured besides the cluster resources.
	kinds []schema.GroupVersionKind
	// owners lists the cluster resources, whose UIDs become placeholders.
	owners schema.GroupVersionKind
	// status normalizes a cluster resource's status (inventories, condition
	// times); it gets the resource as read.
	status func(u *unstructured.Unstructured) (any, error)
	// skip leaves out objects nobody of ours made (the namespace's root CA
	// ConfigMap and default ServiceAccount).
	skip func(kind, name string) bool
}

// defaultSkip leaves out what the control plane puts in every namespace.
func defaultSkip(kind, name string) bool {
	return kind == "ConfigMap" && name == "kube-root-ca.crt" || kind == "ServiceAccount" && name == "default"
}

// volatileMetadata are fields the server sets.
var volatileMetadata = []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "generation", "selfLink"}

func (cp capturer) capture(ctx context.Context, c client.Reader, ns string) (endState, error) {
	owners, err := list(ctx, c, ns, cp.owners)
	if err != nil {
		return nil, err
	}
	replace := []string{ns, "$NS"}
	for _, o := range owners {
		replace = append(replace, string(o.GetUID()), "$UID("+o.GetName()+")")
	}
	r := strings.NewReplacer(replace...)
	state := endState{}
	for _, o := range owners {
		n, err := normalize(&o, r)
		if err != nil {
			return nil, err
		}
		if cp.status != nil {
			st, err := cp.status(&o)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", o.GetKind(), o.GetName(), err)
			}
			n["status"] = scrub(st, r)
		}
		state[o.GetKind()+" "+o.GetName()] = n
	}
	for _, gvk := range cp.kinds {
		objs, err := list(ctx, c, ns, gvk)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if cp.skip != nil && cp.skip(gvk.Kind, o.GetName()) {
				continue
			}
			n, err := normalize(&o, r)
			if err != nil {
				return nil, err
			}
			delete(n, "status")
			state[gvk.Kind+" "+o.GetName()] = n
		}
	}
	return state, nil
}

func list(ctx context.Context, c client.Reader, ns string, gvk schema.GroupVersionKind) ([]unstructured.Unstructured, error) {
	l := &unstructured.UnstructuredList{}
	l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err := c.List(ctx, l, client.InNamespace(ns)); err != nil {
		return nil, fmt.Errorf("listing %s: %w", gvk.Kind, err)
	}
	return l.Items, nil
}

// normalize returns o's content without what the server assigns, its
// strings rewritten by r.
func normalize(o *unstructured.Unstructured, r *strings.Replacer) (map[string]any, error) {
	c := runtime.DeepCopyJSON(o.Object)
	md, _ := c["metadata"].(map[string]any)
	for _, f := range volatileMetadata {
		delete(md, f)
	}
	if anns, ok := md["annotations"].(map[string]any); ok {
		for k := range anns {
			if strings.HasSuffix(k, "/digest") {
				anns[k] = "$DIGEST"
			}
		}
	}
	if labels, ok := md["labels"].(map[string]any); ok {
		for k := range labels {
			if strings.HasSuffix(k, "/owner-id") {
				labels[k] = "$OWNER-HASH"
			}
		}
	}
	if spec, ok := c["spec"].(map[string]any); ok && o.GetKind() == "Service" {
		for _, f := range []string{"clusterIP", "clusterIPs"} {
			if _, set := spec[f]; set {
				spec[f] = "$IP"
			}
		}
	}
	out, _ := scrub(c, r).(map[string]any)
	return out, nil
}

// scrub rewrites every string of v with r.
func scrub(v any, r *strings.Replacer) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[r.Replace(k)] = scrub(e, r)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = scrub(e, r)
		}
		return out
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = r.Replace(e)
		}
		return out
	case string:
		return r.Replace(t)
	default:
		return v
	}
}

// equalStates reports whether two end states agree field by field.
func equalStates(a, b endState) bool { return gocmp.Equal(a, b) }

// diffStates explains how got differs from want.
func diffStates(want, got endState) string { return gocmp.Diff(want, got) }
