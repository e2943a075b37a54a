package helm

import (
	"fmt"

	release "helm.sh/helm/v4/pkg/release/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

// ReasonUnknownHookEvent is the Warning reason of an object left out
// because its helm.sh/hook annotation names an event Helm does not know.
const ReasonUnknownHookEvent = "UnknownHookEvent"

// unknownHook returns the warning for obj, rendered from template, when its
// helm.sh/hook annotation names an event Helm does not know (a typo such
// as "pre-instal"). Helm leaves such an object out of a release, neither
// hook nor manifest, and only logs it; so does the generator, and it says
// so in a Warning.
func unknownHook(template string, obj *unstructured.Unstructured) (generators.Warning, bool) {
	value, ok := obj.GetAnnotations()[release.HookAnnotation]
	if !ok {
		return generators.Warning{}, false
	}
	_, unknown := hookEvents(value)
	if unknown == "" {
		return generators.Warning{}, false
	}
	return generators.Warning{
		Reason: ReasonUnknownHookEvent,
		Author: failure.AuthorOperator,
		Source: template,
		Object: corev1.ObjectReference{APIVersion: obj.GetAPIVersion(), Kind: obj.GetKind(),
			Namespace: obj.GetNamespace(), Name: obj.GetName()},
		Message: fmt.Sprintf("%s %s of %s is left out, as Helm leaves it out: its %s annotation %q names the event %q, which Helm does not know",
			obj.GetKind(), obj.GetName(), template, release.HookAnnotation, value, unknown),
	}, true
}
