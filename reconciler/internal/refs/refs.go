package refs

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler/internal/observe"
)

// Kinds are the kinds of the referenced objects.
var Kinds = []string{"ConfigMap", "Secret"}

// Object returns the metadata-only object a watch of kind uses.
func Object(kind string) client.Object {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(kind))
	return m
}

// NewCache returns a cache of the names, namespaces, UIDs and versions of
// ConfigMaps and Secrets in namespaces (every namespace when empty):
// nothing else of them is kept.
func NewCache(mgr ctrl.Manager, namespaces []string) (cache.Cache, error) {
	return cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient:        mgr.GetHTTPClient(),
		Scheme:            mgr.GetScheme(),
		Mapper:            mgr.GetRESTMapper(),
		DefaultNamespaces: Namespaces(namespaces),
		DefaultTransform: func(in any) (any, error) {
			if m, ok := in.(*metav1.PartialObjectMetadata); ok {
				m.ObjectMeta = metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion}
			}
			return in, nil
		},
	})
}

// Referring returns the map function of the watch of kind: it lists, from
// c's cache, the resources (of the list type listGVK) whose index holds
// key(object), and asks for a pass of each. inNamespace restricts the list
// to the object's namespace. Failures are logged through the logger of the
// event's context, else through log.
func Referring(c client.Client, listGVK schema.GroupVersionKind, index string, key func(client.Object) string, inNamespace bool, log logr.Logger) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		log := observe.Logger(ctx, log).WithValues("kind", o.GetObjectKind().GroupVersionKind().Kind, "object", client.ObjectKeyFromObject(o))
		obj, err := c.Scheme().New(listGVK)
		if err != nil {
			log.Error(err, "the scheme has no list type of the resource")
			return nil
		}
		list, ok := obj.(client.ObjectList)
		if !ok {
			log.Error(nil, "not a list type", "type", listGVK)
			return nil
		}
		opts := []client.ListOption{client.MatchingFields{index: key(o)}}
		if inNamespace {
			opts = append(opts, client.InNamespace(o.GetNamespace()))
		}
		if err := c.List(ctx, list, opts...); err != nil {
			log.Error(err, "listing the resources that refer to an object")
			return nil
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			log.Error(err, "reading the resources that refer to an object")
			return nil
		}
		reqs := make([]reconcile.Request, 0, len(items))
		for _, it := range items {
			if m, ok := it.(client.Object); ok {
				reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(m)})
			}
		}
		return reqs
	}
}

// Namespaces returns the cache configuration of a list of namespaces: nil,
// every namespace, for an empty list.
func Namespaces(names []string) map[string]cache.Config {
	if len(names) == 0 {
		return nil
	}
	out := make(map[string]cache.Config, len(names))
	for _, ns := range names {
		out[ns] = cache.Config{}
	}
	return out
}

// CheckNamespaces checks a list of namespaces an operator is restricted to:
// each a namespace name, none twice. The errors name field[i] and are the
// operator's mistake (failure.ErrInvalid).
func CheckNamespaces(field string, names []string) []error {
	var errs []error
	seen := map[string]bool{}
	for i, ns := range names {
		f := fmt.Sprintf("%s[%d]", field, i)
		if seen[ns] {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, f, "%q is listed twice", ns))
		} else if msgs := validation.IsDNS1123Label(ns); len(msgs) > 0 {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, f, "%q is not a namespace name: %s", ns, strings.Join(msgs, "; ")))
		}
		seen[ns] = true
	}
	return errs
}
