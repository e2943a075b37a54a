package shardgate

import (
	"fmt"
	"maps"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// OwnerLabels returns the labels of obj that name the replica owning it,
// one per ring (commonsv1alpha1.LabelShardPrefix); nil when it has none.
// A drain request is not among them.
func OwnerLabels(obj client.Object) map[string]string {
	return withPrefix(obj, commonsv1alpha1.LabelShardPrefix)
}

// BucketLabels returns the labels of obj that carry its bucket, one per
// ring (commonsv1alpha1.LabelShardBucketPrefix); nil when it has none.
func BucketLabels(obj client.Object) map[string]string {
	return withPrefix(obj, commonsv1alpha1.LabelShardBucketPrefix)
}

func withPrefix(obj client.Object, prefix string) map[string]string {
	var out map[string]string
	for k, v := range obj.GetLabels() {
		if strings.HasPrefix(k, prefix) {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// Follow gives every object of objs the owner labels of their resource,
// in their own metadata (pod templates are left alone: a move must not
// roll pods), so that the objects follow the resource from replica to
// replica and each replica's cache holds those of its share. An object
// whose labels already say so is left as it is; the others are changed in
// place.
func Follow(owner map[string]string, objs []client.Object) {
	if len(owner) == 0 {
		return
	}
	for _, o := range objs {
		l := o.GetLabels()
		if l == nil {
			l = make(map[string]string, len(owner))
		}
		maps.Copy(l, owner)
		o.SetLabels(l)
	}
}

// Narrow adds sel's requirements to the label selector of every kind of
// byObject, so that a cache built with it holds the replica's share of
// those kinds alone.
func Narrow(byObject map[client.Object]cache.ByObject, sel labels.Selector) {
	reqs, _ := sel.Requirements()
	for obj, b := range byObject {
		base := b.Label
		if base == nil {
			base = labels.Everything()
		}
		b.Label = base.Add(reqs...)
		byObject[obj] = b
	}
}

// TakeOwner replaces the owner and bucket labels of planned by those of
// live: a plan of a resource from a user's file sees the objects as the
// owner writes them.
func TakeOwner(planned, live client.Object) {
	l := planned.GetLabels()
	for k := range l {
		if strings.HasPrefix(k, commonsv1alpha1.LabelShardPrefix) || strings.HasPrefix(k, commonsv1alpha1.LabelShardBucketPrefix) {
			delete(l, k)
		}
	}
	take := withPrefix(live, commonsv1alpha1.LabelShardPrefix)
	if b := BucketLabels(live); len(b) > 0 {
		if take == nil {
			take = b
		} else {
			maps.Copy(take, b)
		}
	}
	if len(take) == 0 {
		planned.SetLabels(l)
		return
	}
	if l == nil {
		l = map[string]string{}
	}
	maps.Copy(l, take)
	planned.SetLabels(l)
}

// workloadKinds are the kinds whose spec.template is a pod template.
var workloadKinds = map[schema.GroupKind]bool{
	{Group: "apps", Kind: "StatefulSet"}: true,
	{Group: "apps", Kind: "Deployment"}:  true,
	{Group: "apps", Kind: "DaemonSet"}:   true,
	{Group: "apps", Kind: "ReplicaSet"}:  true,
	{Group: "batch", Kind: "Job"}:        true,
}

// TagPods gives the pod template of every workload of objs (StatefulSets,
// Deployments, DaemonSets, ReplicaSets and Jobs, typed or unstructured)
// the bucket labels of their resource (BucketLabels), so that their pods
// carry the resource's bucket. Other objects are left alone. It fails on
// an unstructured workload whose spec.template is not an object.
func TagPods(buckets map[string]string, objs []client.Object) error {
	if len(buckets) == 0 {
		return nil
	}
	for _, o := range objs {
		var meta *metav1.ObjectMeta
		switch w := o.(type) {
		case *appsv1.StatefulSet:
			meta = &w.Spec.Template.ObjectMeta
		case *appsv1.Deployment:
			meta = &w.Spec.Template.ObjectMeta
		case *appsv1.DaemonSet:
			meta = &w.Spec.Template.ObjectMeta
		case *appsv1.ReplicaSet:
			meta = &w.Spec.Template.ObjectMeta
		case *batchv1.Job:
			meta = &w.Spec.Template.ObjectMeta
		case *unstructured.Unstructured:
			if !workloadKinds[w.GroupVersionKind().GroupKind()] {
				continue
			}
			for key, bucket := range buckets {
				if err := unstructured.SetNestedField(w.Object, bucket, "spec", "template", "metadata", "labels", key); err != nil {
					return fmt.Errorf("%s %s/%s: labelling its pod template: %w", w.GetKind(), w.GetNamespace(), w.GetName(), err)
				}
			}
			continue
		default:
			continue
		}
		if meta.Labels == nil {
			meta.Labels = make(map[string]string, len(buckets))
		}
		maps.Copy(meta.Labels, buckets)
	}
	return nil
}
