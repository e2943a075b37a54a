package faults

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/testkit/internal/reqinfo"
)

// Client wraps c with controller-runtime's interceptor so that its calls may
// fail with injected faults before reaching c. Verbs and resources are named
// as in Rule; server-side apply counts as patch. A watch cut by a WatchCut
// rule is stopped after its duration.
func (i *Injector) Client(c client.WithWatch) client.WithWatch {
	fail := func(cl client.Client, verb string, obj runtime.Object, sub, name string) error {
		resource := resourceOf(cl, obj, sub)
		if rule, _ := i.decide(verb, resource); rule != nil {
			return statusError(rule, resource, name)
		}
		return nil
	}
	return interceptor.NewClient(c, interceptor.Funcs{
		Get: func(ctx context.Context, cl client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if err := fail(cl, "get", obj, "", key.Name); err != nil {
				return err
			}
			return cl.Get(ctx, key, obj, opts...)
		},
		List: func(ctx context.Context, cl client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if err := fail(cl, "list", list, "", ""); err != nil {
				return err
			}
			return cl.List(ctx, list, opts...)
		},
		Watch: func(ctx context.Context, cl client.WithWatch, list client.ObjectList, opts ...client.ListOption) (watch.Interface, error) {
			resource := resourceOf(cl, list, "")
			rule, cut := i.decide("watch", resource)
			if rule != nil && rule.Fault != WatchCut {
				return nil, statusError(rule, resource, "")
			}
			w, err := cl.Watch(ctx, list, opts...)
			if err != nil || rule == nil {
				return w, err
			}
			return cutWatch(w, cut), nil
		},
		Create: func(ctx context.Context, cl client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if err := fail(cl, "create", obj, "", obj.GetName()); err != nil {
				return err
			}
			return cl.Create(ctx, obj, opts...)
		},
		Update: func(ctx context.Context, cl client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			if err := fail(cl, "update", obj, "", obj.GetName()); err != nil {
				return err
			}
			return cl.Update(ctx, obj, opts...)
		},
		Patch: func(ctx context.Context, cl client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			if err := fail(cl, "patch", obj, "", obj.GetName()); err != nil {
				return err
			}
			return cl.Patch(ctx, obj, patch, opts...)
		},
		Apply: func(ctx context.Context, cl client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			if err := fail(cl, "patch", applyObject(obj), "", applyName(obj)); err != nil {
				return err
			}
			return cl.Apply(ctx, obj, opts...)
		},
		Delete: func(ctx context.Context, cl client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			if err := fail(cl, "delete", obj, "", obj.GetName()); err != nil {
				return err
			}
			return cl.Delete(ctx, obj, opts...)
		},
		DeleteAllOf: func(ctx context.Context, cl client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
			if err := fail(cl, "deletecollection", obj, "", ""); err != nil {
				return err
			}
			return cl.DeleteAllOf(ctx, obj, opts...)
		},
		SubResourceGet: func(ctx context.Context, cl client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceGetOption) error {
			if err := fail(cl, "get", obj, sub, obj.GetName()); err != nil {
				return err
			}
			return cl.SubResource(sub).Get(ctx, obj, subObj, opts...)
		},
		SubResourceCreate: func(ctx context.Context, cl client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceCreateOption) error {
			if err := fail(cl, "create", obj, sub, obj.GetName()); err != nil {
				return err
			}
			return cl.SubResource(sub).Create(ctx, obj, subObj, opts...)
		},
		SubResourceUpdate: func(ctx context.Context, cl client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			if err := fail(cl, "update", obj, sub, obj.GetName()); err != nil {
				return err
			}
			return cl.SubResource(sub).Update(ctx, obj, opts...)
		},
		SubResourcePatch: func(ctx context.Context, cl client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			if err := fail(cl, "patch", obj, sub, obj.GetName()); err != nil {
				return err
			}
			return cl.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	})
}

// resourceOf names obj's resource as Rule does, or "" when it cannot be
// resolved (such a request matches only rules without Resources).
func resourceOf(cl client.Client, obj runtime.Object, sub string) string {
	if obj == nil || cl == nil {
		return ""
	}
	gvk, err := cl.GroupVersionKindFor(obj)
	if err != nil {
		return ""
	}
	if _, isList := obj.(client.ObjectList); isList {
		gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	}
	m, err := cl.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return ""
	}
	return reqinfo.Resource(m.Resource.Group, m.Resource.Resource, sub)
}

// applyMeta is what typed and unstructured apply configurations expose.
type applyMeta interface {
	GetName() *string
	GetKind() *string
	GetAPIVersion() *string
}

// applyObject turns an apply configuration into an object carrying its
// group, version and kind, for resourceOf.
func applyObject(obj runtime.ApplyConfiguration) runtime.Object {
	u := &unstructured.Unstructured{}
	if m, ok := obj.(applyMeta); ok {
		if k := m.GetKind(); k != nil {
			u.SetKind(*k)
		}
		if v := m.GetAPIVersion(); v != nil {
			u.SetAPIVersion(*v)
		}
	}
	return u
}

func applyName(obj runtime.ApplyConfiguration) string {
	if m, ok := obj.(applyMeta); ok && m.GetName() != nil {
		return *m.GetName()
	}
	return ""
}
