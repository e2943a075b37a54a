package apply

import (
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// replaced builds the object a full update sends: the live object's
// identity and server-owned metadata, the desired content, the desired
// labels (replacing the live ones), annotations merged (foreign ones stay,
// on the object and on a pod template) and finalizers merged.
// Annotations under the engine's own prefix are not foreign: the
// desired object alone decides them.
func replaced(live, want *unstructured.Unstructured, prefix string) *unstructured.Unstructured {
	out := live.DeepCopy()
	for k := range live.Object {
		if k != "metadata" && k != "status" {
			delete(out.Object, k)
		}
	}
	for k, v := range want.Object {
		if k != "metadata" && k != "status" {
			out.Object[k] = v
		}
	}
	out.SetLabels(want.GetLabels())
	liveAnn := maps.Clone(live.GetAnnotations())
	maps.DeleteFunc(liveAnn, func(k, _ string) bool { return strings.HasPrefix(k, prefix) })
	out.SetAnnotations(mergeStrings(liveAnn, want.GetAnnotations()))
	if refs := want.GetOwnerReferences(); refs != nil {
		out.SetOwnerReferences(refs)
	}
	fin := slices.Clone(live.GetFinalizers())
	for _, f := range want.GetFinalizers() {
		if !slices.Contains(fin, f) {
			fin = append(fin, f)
		}
	}
	out.SetFinalizers(fin)
	mergeTemplateAnnotations(live, out)
	return out
}

// mergeTemplateAnnotations keeps annotations other controllers put on a pod
// template (for example a restart stamp) that the desired template lacks.
func mergeTemplateAnnotations(live, out *unstructured.Unstructured) {
	liveAnn, found, err := unstructured.NestedStringMap(live.Object, "spec", "template", "metadata", "annotations")
	if err != nil || !found || len(liveAnn) == 0 {
		return
	}
	if _, found, _ := unstructured.NestedMap(out.Object, "spec", "template"); !found {
		return
	}
	wantAnn, _, err := unstructured.NestedStringMap(out.Object, "spec", "template", "metadata", "annotations")
	if err != nil {
		return
	}
	_ = unstructured.SetNestedStringMap(out.Object, mergeStrings(liveAnn, wantAnn), "spec", "template", "metadata", "annotations")
}

func mergeStrings(base, over map[string]string) map[string]string {
	if len(base) == 0 && len(over) == 0 {
		return nil
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, over)
	return out
}
