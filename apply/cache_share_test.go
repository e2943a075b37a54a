package apply

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// groupLabels returns a role group's labels as a decoder returns them:
// every string a separate allocation.
func groupLabels() map[string]string {
	m := map[string]string{}
	for k, v := range map[string]string{
		commonsv1alpha1.LabelInstance: "demo", commonsv1alpha1.LabelComponent: "server",
		commonsv1alpha1.LabelRoleGroup: "default", commonsv1alpha1.LabelManagedBy: "opkit",
	} {
		m[strings.Clone(k)] = strings.Clone(v)
	}
	return m
}

func sameData(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

// The transform changes no content, shares what objects repeat, and runs
// the transform it wraps first.
func TestShareStrings(t *testing.T) {
	newConfigMap := func(name string) *corev1.ConfigMap {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Namespace: strings.Clone("ns"), Name: name, Labels: groupLabels(),
			Annotations:     map[string]string{strings.Clone("example.com/digest"): name},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: strings.Clone("example.com/v1"), Kind: strings.Clone("Demo"), Name: strings.Clone("demo"), UID: "u1"}},
			ManagedFields:   []metav1.ManagedFieldsEntry{{Manager: "kubectl"}},
		}}
		return cm
	}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "demo-server-default", Labels: groupLabels()},
		Spec: appsv1.StatefulSetSpec{Selector: &metav1.LabelSelector{MatchLabels: groupLabels()},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: groupLabels()}}}}

	transform := shareStrings(cache.TransformStripManagedFields())
	var got []client.Object
	for _, in := range []client.Object{newConfigMap("a"), newConfigMap("b"), sts} {
		want := in.DeepCopyObject().(client.Object)
		want.SetManagedFields(nil)
		out, err := transform(in)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, out); diff != "" {
			t.Errorf("%s changed (-want +got):\n%s", in.GetName(), diff)
		}
		got = append(got, out.(client.Object))
	}

	a, b := got[0].(*corev1.ConfigMap), got[1].(*corev1.ConfigMap)
	for k, v := range a.Labels {
		bk, bv := keyOf(b.Labels, k), b.Labels[k]
		if !sameData(bk, k) || !sameData(bv, v) {
			t.Errorf("label %s=%s is held twice", k, v)
		}
		if sv := sts.Spec.Template.Labels[k]; !sameData(sv, v) || !sameData(sts.Spec.Selector.MatchLabels[k], v) {
			t.Errorf("the StatefulSet's template or selector holds its own %s=%s", k, v)
		}
	}
	if r1, r2 := a.OwnerReferences[0], b.OwnerReferences[0]; !sameData(r1.Kind, r2.Kind) || !sameData(r1.APIVersion, r2.APIVersion) || !sameData(r1.Name, r2.Name) {
		t.Errorf("owner references are held twice")
	}
	if !sameData(a.Namespace, b.Namespace) {
		t.Errorf("the namespace is held twice")
	}

	u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "x", "managedFields": []any{map[string]any{"manager": "m"}}}}}
	out, err := transform(u)
	if err != nil || out != u || len(u.GetManagedFields()) != 0 {
		t.Errorf("unstructured: got %v, %v; want the same object with managed fields stripped", out, err)
	}
}

func keyOf(m map[string]string, key string) string {
	for k := range m {
		if k == key {
			return k
		}
	}
	return ""
}

// A string shared before a garbage collection is the copy handed out
// after it: sharing does not depend on when objects are decoded.
func TestSharedSurvivesGarbageCollection(t *testing.T) {
	first := Shared(strings.Clone("app.kubernetes.io/instance=survivor"))
	runtime.GC()
	runtime.GC()
	if again := Shared(strings.Clone("app.kubernetes.io/instance=survivor")); !sameData(first, again) {
		t.Error("after a garbage collection the string is copied anew")
	}
}

// The table starts again once full: it never holds more than its limit.
func TestSharedTableIsBounded(t *testing.T) {
	table := &stringTable{m: map[string]string{}}
	for i := range sharedTableLimit + 10 {
		table.share("s" + strconv.Itoa(i))
	}
	if n := len(table.m); n > sharedTableLimit {
		t.Errorf("the table holds %d strings, more than its limit %d", n, sharedTableLimit)
	}
}

func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// Cached objects with equal labels hold one label map; other labels, and
// the annotations that hold per-object values, get maps of their own.
func TestShareStringsSharesEqualLabelMaps(t *testing.T) {
	newConfigMap := func(name, instance string) *corev1.ConfigMap {
		labels := groupLabels()
		labels[strings.Clone(commonsv1alpha1.LabelInstance)] = strings.Clone(instance)
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: labels,
			Annotations: map[string]string{strings.Clone("example.com/digest"): strings.Clone("d")}}}
	}
	deploy := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web", Labels: groupLabels()},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: groupLabels()},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: groupLabels()}}}}
	transform := shareStrings(nil)
	var got []*corev1.ConfigMap
	for _, in := range []*corev1.ConfigMap{newConfigMap("a", "demo"), newConfigMap("b", "demo"), newConfigMap("c", "other")} {
		want := in.DeepCopy()
		out, err := transform(in)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, out); diff != "" {
			t.Errorf("%s changed (-want +got):\n%s", in.Name, diff)
		}
		got = append(got, out.(*corev1.ConfigMap))
	}
	if _, err := transform(deploy); err != nil {
		t.Fatal(err)
	}
	a, b, c := got[0], got[1], got[2]
	if !sameMap(a.Labels, b.Labels) {
		t.Error("two objects with equal labels hold a map each")
	}
	if sameMap(a.Labels, c.Labels) {
		t.Error("objects with different labels hold one map")
	}
	if sameMap(a.Annotations, b.Annotations) {
		t.Error("annotation maps are shared; they hold per-object values")
	}
	if !sameMap(a.Labels, deploy.Labels) || !sameMap(a.Labels, deploy.Spec.Template.Labels) || !sameMap(a.Labels, deploy.Spec.Selector.MatchLabels) {
		t.Error("the Deployment's labels, template labels or selector hold a map of their own")
	}
}

// Maps of equal content share one map whatever the order they were built
// in; a map whose hash the table holds for another content keeps its own
// content; pods' labels, which name the pod, do not enter the table.
func TestMapTable(t *testing.T) {
	table := newMapTable()
	a := table.share(map[string]string{"x": "1", "y": "2"})
	b := table.share(map[string]string{"y": "2", "x": "1"})
	if !sameMap(a, b) {
		t.Error("equal maps built in another order hold a map each")
	}

	other := map[string]string{"z": "3"}
	table.m[table.hash(other)] = map[string]string{"collides": "yes"}
	if diff := cmp.Diff(map[string]string{"z": "3"}, table.share(other)); diff != "" {
		t.Errorf("a map whose hash holds another content (-want +got):\n%s", diff)
	}

	before := len(sharedMaps.m)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Labels: map[string]string{
		"statefulset.kubernetes.io/pod-name": "web-0-" + strconv.Itoa(before), "app": "web"}}}
	if _, err := shareStrings(nil)(pod); err != nil {
		t.Fatal(err)
	}
	if after := len(sharedMaps.m); after > before {
		t.Errorf("a pod's labels entered the table (%d maps, %d before)", after, before)
	}
}

// The map table starts again once full: it never holds more than its
// limit, and a map shared before that stays as its objects hold it.
func TestSharedMapsAreBounded(t *testing.T) {
	table := newMapTable()
	first := table.share(map[string]string{"a": "0"})
	for i := range sharedMapsLimit + 10 {
		table.share(map[string]string{"a": strconv.Itoa(i)})
	}
	if n := len(table.m); n > sharedMapsLimit {
		t.Errorf("the table holds %d maps, more than its limit %d", n, sharedMapsLimit)
	}
	if diff := cmp.Diff(map[string]string{"a": "0"}, first); diff != "" {
		t.Errorf("a shared map changed (-want +got):\n%s", diff)
	}
}
