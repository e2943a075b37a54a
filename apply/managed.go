package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// IsDeletionAllowed reports whether Delete may start: not while instances
// of a managed type (a type served by a CRD or APIService of the inventory,
// or one of Options.AdditionalManagedTypes) exist that are not themselves
// part of the inventory, because deleting the type would delete someone
// else's objects. The reason names the first such instance. Types given
// with Kind "*" are not checked, as enumerating their kinds needs
// discovery.
func (r *Engine) IsDeletionAllowed(ctx context.Context, inv *inventory.Inventory) (bool, string, error) {
	var types []TypeInfo
	for i := range inv.Items {
		types = append(types, inv.Items[i].ManagedTypes...)
	}
	types = append(types, r.opts.AdditionalManagedTypes...)
	idx := inventory.NewIndex(inv)
	var foreign []string
	_, err := r.countInstances(ctx, types, func(gk schema.GroupKind, m metav1.PartialObjectMetadata) {
		k := inventory.KeyOf(gk, m.Namespace, m.Name)
		if _, ok := idx[k]; !ok {
			foreign = append(foreign, k.String())
		}
	})
	if err != nil {
		return false, "", err
	}
	if len(foreign) > 0 {
		slices.Sort(foreign)
		return false, fmt.Sprintf("%d instance(s) of managed types not created by this owner exist, e.g. %s", len(foreign), foreign[0]), nil
	}
	return true, "", nil
}

// countInstances counts the instances of the given types across all
// namespaces, calling visit for each. A type the server does not serve has
// none.
func (r *Engine) countInstances(ctx context.Context, types []TypeInfo, visit func(schema.GroupKind, metav1.PartialObjectMetadata)) (int, error) {
	n := 0
	types, err := r.expandKinds(types)
	if err != nil {
		return 0, err
	}
	for _, t := range types {
		gk := schema.GroupKind{Group: t.Group, Kind: t.Kind}
		mapping, err := r.mapper.RESTMapping(gk)
		if isNoMatch(err) {
			continue
		}
		if err != nil {
			return n, fmt.Errorf("finding %s: %w", gk, err)
		}
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(mapping.GroupVersionKind.GroupVersion().WithKind(t.Kind + "List"))
		if err := r.reader.List(ctx, list); err != nil {
			if isNoMatch(err) {
				continue
			}
			return n, apierr.Classify(fmt.Errorf("listing %s: %w", gk, err))
		}
		for _, m := range list.Items {
			n++
			if visit != nil {
				visit(gk, m)
			}
		}
	}
	return n, nil
}

func isNoMatch(err error) bool {
	if err == nil {
		return false
	}
	var kind *meta.NoKindMatchError
	var res *meta.NoResourceMatchError
	return errors.As(err, &kind) || errors.As(err, &res) || meta.IsNoMatchError(err)
}

// expandKinds replaces types with Kind "*" by the kinds discovery lists for
// their group and version, dropping them without discovery.
func (r *Engine) expandKinds(types []TypeInfo) ([]TypeInfo, error) {
	var out []TypeInfo
	for _, t := range types {
		if t.Kind != "*" {
			out = append(out, t)
			continue
		}
		if r.opts.Discovery == nil {
			continue
		}
		gv := schema.GroupVersion{Group: t.Group, Version: t.Version}
		list, err := r.opts.Discovery.ServerResourcesForGroupVersion(gv.String())
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("discovering the kinds of %s: %w", gv, err)
		}
		for _, res := range list.APIResources {
			if !strings.Contains(res.Name, "/") && slices.Contains(res.Verbs, "list") {
				out = append(out, TypeInfo{Group: t.Group, Version: t.Version, Kind: res.Kind})
			}
		}
	}
	return out, nil
}
