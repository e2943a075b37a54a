package cli

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/yaml"
)

// template prints the objects the next pass would apply for each
// resource of the file, as a YAML stream; each document is preceded by a
// comment naming its resource and scope.
func (c *Command) template(ctx context.Context, f flags) error {
	objs, err := c.connect(ctx, f)
	if err != nil {
		return err
	}
	w := &textWriter{w: c.opts.Stdout}
	var errs []error
	for _, obj := range objs {
		key := client.ObjectKeyFromObject(obj)
		scopes, warns, err := c.t.render(ctx, obj)
		if err != nil {
			errs = append(errs, fmt.Errorf("the rendering of %s is not complete: %w", key, err))
		}
		for _, s := range scopes {
			source := key.String()
			if s.Scope != "" {
				source += " " + s.Scope
			}
			for _, o := range s.Objects {
				text, err := manifest(o, c.opts.Scheme)
				if err != nil {
					return err
				}
				w.printf("---\n# Source: %s\n%s", source, text)
			}
		}
		for _, m := range warns {
			w.printf("# warning %s: %s\n", key, oneLine(m))
		}
	}
	return errors.Join(append(errs, w.err)...)
}

// manifest is obj as YAML with its apiVersion and kind, without the empty
// fields a typed object carries (creationTimestamp, status).
func manifest(obj client.Object, scheme *runtime.Scheme) (string, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		gvk, err := apiutil.GVKForObject(obj, scheme)
		if err != nil {
			return "", err
		}
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return "", err
		}
		u = &unstructured.Unstructured{Object: m}
		u.SetGroupVersionKind(gvk)
	}
	u = u.DeepCopy()
	if ts, found, _ := unstructured.NestedFieldNoCopy(u.Object, "metadata", "creationTimestamp"); found && ts == nil {
		unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	}
	if st, found, _ := unstructured.NestedMap(u.Object, "status"); found && len(st) == 0 {
		unstructured.RemoveNestedField(u.Object, "status")
	}
	b, err := yaml.Marshal(u.Object)
	return string(b), err
}
