package orphan

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// IndexedKinds are the kinds a Cleaner lists on every pass, to find the
// role groups a cluster has and its role PodDisruptionBudgets. Index
// indexes them.
func IndexedKinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{
		appsv1.SchemeGroupVersion.WithKind("StatefulSet"),
		corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		corev1.SchemeGroupVersion.WithKind("Service"),
		policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
	}
}

// Index adds the index field to the informer of each of objs, in the cache
// behind indexer, with the values IndexValue gives. objs are the informer
// objects of the kinds IndexedKinds lists, typed or metadata-only, as the
// cache the Cleaner's client reads keeps them. Then set Options.Index to
// field: each pass finds a cluster's objects of those kinds through the
// index, instead of testing the labels of every cached object of the
// namespace, which grows with the square of the number of clusters that
// share a namespace. The labels are still tested; the index only narrows
// what is tested.
//
// Call it before the cache starts. field must be new to each informer:
// two cleaners sharing a cache take different names (each its
// controller's name in it, say).
//
//	field := "orphan.opkit.dev/cluster-" + name
//	err := orphan.Index(ctx, mgr.GetFieldIndexer(), field, &appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}, &policyv1.PodDisruptionBudget{})
//	cleaner, err := orphan.NewCleaner(mgr.GetClient(), mgr.GetAPIReader(), orphan.Options{Index: field})
func Index(ctx context.Context, indexer client.FieldIndexer, field string, objs ...client.Object) error {
	if field == "" {
		return fmt.Errorf("orphan.Index: the field name is empty")
	}
	for _, obj := range objs {
		if err := indexer.IndexField(ctx, obj, field, IndexValue); err != nil {
			return fmt.Errorf("orphan.Index: indexing %T by %s: %w", obj, field, err)
		}
	}
	return nil
}

// IndexValue is the value Index files obj under: its cluster, as its
// instance label names it; none without that label.
func IndexValue(obj client.Object) []string {
	if cluster := obj.GetLabels()[v1alpha1.LabelInstance]; cluster != "" {
		return []string{cluster}
	}
	return nil
}

// inCluster returns the list options that narrow a list in sc's namespace
// to the objects labelled with sc's cluster, through the index when
// Options.Index names one; the labels are tested either way.
func (c *Cleaner) inCluster(sc scope) []client.ListOption {
	opts := []client.ListOption{client.InNamespace(sc.namespace)}
	if c.opts.Index != "" {
		opts = append(opts, client.MatchingFields{c.opts.Index: sc.cluster})
	}
	return opts
}
