package shardgate

import (
	"maps"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// OwnerLabels returns the labels of obj that name the replica owning it,
// one per ring (commonsv1alpha1.LabelShardPrefix); nil when it has none.
// A drain request is not among them.
func OwnerLabels(obj client.Object) map[string]string {
	var out map[string]string
	for k, v := range obj.GetLabels() {
		if strings.HasPrefix(k, commonsv1alpha1.LabelShardPrefix) {
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

// TakeOwner replaces the owner labels of planned by those of live: a
// plan of a resource from a user's file sees the objects as the owner
// writes them.
func TakeOwner(planned, live client.Object) {
	l := planned.GetLabels()
	for k := range l {
		if strings.HasPrefix(k, commonsv1alpha1.LabelShardPrefix) {
			delete(l, k)
		}
	}
	owner := OwnerLabels(live)
	if len(owner) == 0 {
		planned.SetLabels(l)
		return
	}
	if l == nil {
		l = map[string]string{}
	}
	maps.Copy(l, owner)
	planned.SetLabels(l)
}
