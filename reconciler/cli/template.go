package cli

import (
	"bytes"
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
// comment naming its resource and scope. Offline (no --cluster) the
// reconciler reads the file's other documents and nothing else. A
// rendering that fails prints no object at all: a part of a set piped to
// kubectl apply would be applied as if it were the whole.
func (c *Command) template(ctx context.Context, f flags) error {
	var objs []client.Object
	var err error
	if f.cluster {
		objs, err = c.connect(ctx, f)
	} else {
		objs, err = c.offline(f)
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	w := &textWriter{w: &buf}
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
	if err := errors.Join(append(errs, w.err)...); err != nil {
		return err
	}
	_, err = c.opts.Stdout.Write(buf.Bytes())
	return err
}

// offline loads the file's resources and sets the reconciler up with the
// file's other documents as its cluster. A resource that names no
// namespace is in --namespace's, else in "default": no kubeconfig is read.
func (c *Command) offline(f flags) ([]client.Object, error) {
	resources, others, err := c.load(f, orDefault(f.namespace), true)
	if err != nil {
		return nil, err
	}
	if err := c.t.setupOffline(c.opts.Scheme, others); err != nil {
		return nil, &InputError{File: f.files.label(), Err: err}
	}
	return resources, nil
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
