package generators

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// LookupFunc is the signature of the lookup template functions: apiVersion,
// kind, namespace ("" for cluster-scoped kinds or every namespace) and name
// ("" for a list).
type LookupFunc func(apiVersion, kind, namespace, name string) (map[string]any, error)

// Lookups serves the lookup and localLookup template functions of one
// rendering, with Helm's semantics: an object as a map, a list (name "")
// as a map with "items", and an empty map for an object or a kind that
// does not exist. It remembers the first failed API call, because template
// engines flatten the errors of functions into text: the generator returns
// Err with its class instead of a template error.
type Lookups struct {
	env Environment

	mu  sync.Mutex
	err error
}

// NewLookups returns the lookups of one rendering in env.
func NewLookups(env Environment) *Lookups {
	return &Lookups{env: env}
}

// Target returns the lookup function reading Environment.Client (the
// cluster the objects go to) within ctx.
func (l *Lookups) Target(ctx context.Context) LookupFunc {
	return func(apiVersion, kind, namespace, name string) (map[string]any, error) {
		return l.lookup(ctx, l.env.Client, apiVersion, kind, namespace, name)
	}
}

// Local returns the lookup function reading
// Environment.EffectiveLocalClient() (the cluster the component lives in)
// within ctx.
func (l *Lookups) Local(ctx context.Context) LookupFunc {
	return func(apiVersion, kind, namespace, name string) (map[string]any, error) {
		return l.lookup(ctx, l.env.EffectiveLocalClient(), apiVersion, kind, namespace, name)
	}
}

// Err returns the first failed API call, classified with apierr.Classify
// (so a 429 is failure.ErrRateLimited), or nil.
func (l *Lookups) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *Lookups) lookup(ctx context.Context, c client.Reader, apiVersion, kind, namespace, name string) (map[string]any, error) {
	if c == nil {
		return map[string]any{}, nil
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("lookup: apiVersion %q: %w", apiVersion, err)
	}
	if name != "" {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gv.WithKind(kind))
		if err = c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, u); err == nil {
			return u.UnstructuredContent(), nil
		}
	} else {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(gv.WithKind(kind + "List"))
		var opts []client.ListOption
		if namespace != "" {
			opts = append(opts, client.InNamespace(namespace))
		}
		if err = c.List(ctx, list, opts...); err == nil {
			return list.UnstructuredContent(), nil
		}
	}
	if apierrors.IsNotFound(err) || meta.IsNoMatchError(err) {
		return map[string]any{}, nil
	}
	err = fmt.Errorf("lookup %s %s %s/%s: %w", apiVersion, kind, namespace, name, apierr.Classify(err))
	l.mu.Lock()
	if l.err == nil {
		l.err = err
	}
	l.mu.Unlock()
	return nil, err
}
