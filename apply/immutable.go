package apply

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	gkStatefulSet = schema.GroupKind{Group: "apps", Kind: "StatefulSet"}
	gkService     = schema.GroupKind{Kind: "Service"}
	gkPVC         = schema.GroupKind{Kind: "PersistentVolumeClaim"}
)

// preserveImmutable rewrites want so that it carries live's values for the
// fields the API server does not let change (or allocated itself), and
// returns the paths of preserved fields that want stated differently, so
// that the caller can say which of its changes were not applied. Kinds
// without rules are left alone.
func preserveImmutable(live, want *unstructured.Unstructured) ([]string, error) {
	switch want.GroupVersionKind().GroupKind() {
	case gkStatefulSet:
		return preserveTyped(live, want, preserveStatefulSet)
	case gkService:
		return preserveTyped(live, want, preserveService)
	case gkJob:
		return preserveTyped(live, want, preserveJob)
	case gkPVC:
		return preserveTyped(live, want, preservePVC)
	}
	return nil, nil
}

// preserveTyped converts both objects to the typed form T, lets rule edit
// the desired one, and writes the desired spec back.
func preserveTyped[T any](live, want *unstructured.Unstructured, rule func(live, want *T) []string) ([]string, error) {
	var l, w T
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(live.Object, &l); err != nil {
		return nil, fmt.Errorf("decoding live %s: %w", want.GetKind(), err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(want.Object, &w); err != nil {
		return nil, fmt.Errorf("decoding desired %s: %w", want.GetKind(), err)
	}
	fields := rule(&l, &w)
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&w)
	if err != nil {
		return nil, fmt.Errorf("encoding desired %s: %w", want.GetKind(), err)
	}
	if spec, ok := content["spec"]; ok {
		want.Object["spec"] = spec
	}
	return fields, nil
}
