package apply

import (
	"fmt"
	"slices"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	gkStatefulSet = schema.GroupKind{Group: "apps", Kind: "StatefulSet"}
	gkService     = schema.GroupKind{Kind: "Service"}
	gkPVC         = schema.GroupKind{Kind: "PersistentVolumeClaim"}
)

// hasImmutableRules reports the kinds preserveImmutable has rules for.
func hasImmutableRules(gk schema.GroupKind) bool {
	return gk == gkStatefulSet || gk == gkService || gk == gkJob || gk == gkPVC
}

// preserveImmutable rewrites want so that it carries live's values for the
// fields the API server does not let change (or allocated itself), and
// returns the preserved fields that want stated differently, with both
// values, so that the caller can say which of its changes were not applied.
// Kinds without rules are left alone.
func preserveImmutable(live, want *unstructured.Unstructured) (preservedFields, error) {
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
func preserveTyped[T any](live, want *unstructured.Unstructured, rule func(live, want *T) preservedFields) (preservedFields, error) {
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

// preserveService keeps what the API server allocated: the cluster IPs, the
// IP families and node ports the desired Service leaves open. Only a
// clusterIP the desired object states differently is reported; the other
// fields are allocations a desired object rarely states.
func preserveService(live, want *corev1.Service) preservedFields {
	var fields preservedFields
	if live.Spec.ClusterIP != "" {
		if want.Spec.ClusterIP != "" && want.Spec.ClusterIP != live.Spec.ClusterIP &&
			want.Spec.Type != corev1.ServiceTypeExternalName && live.Spec.Type != corev1.ServiceTypeExternalName {
			fields = fields.add("spec.clusterIP", live.Spec.ClusterIP, want.Spec.ClusterIP)
		}
		if want.Spec.Type != corev1.ServiceTypeExternalName {
			want.Spec.ClusterIP = live.Spec.ClusterIP
			want.Spec.ClusterIPs = slices.Clone(live.Spec.ClusterIPs)
		}
	}
	if len(want.Spec.IPFamilies) == 0 && want.Spec.Type != corev1.ServiceTypeExternalName {
		want.Spec.IPFamilies = slices.Clone(live.Spec.IPFamilies)
	}
	if want.Spec.Type == corev1.ServiceTypeNodePort || want.Spec.Type == corev1.ServiceTypeLoadBalancer {
		for i := range want.Spec.Ports {
			p := &want.Spec.Ports[i]
			if p.NodePort != 0 {
				continue
			}
			for _, lp := range live.Spec.Ports {
				if lp.Port == p.Port && protocolOf(lp) == protocolOf(*p) {
					p.NodePort = lp.NodePort
				}
			}
		}
	}
	if want.Spec.HealthCheckNodePort == 0 {
		want.Spec.HealthCheckNodePort = live.Spec.HealthCheckNodePort
	}
	return fields
}

func protocolOf(p corev1.ServicePort) corev1.Protocol {
	if p.Protocol == "" {
		return corev1.ProtocolTCP
	}
	return p.Protocol
}

// preserveJob makes a Job create-once: the selector and template the server
// generated or fixed at creation, completions, completion mode and manual
// selector stay as they are; parallelism, suspend, backoff limit, active
// deadline and TTL converge. A desired template or completion setting that
// differs is reported. The selector and the template's labels are filled in
// by the server, so the comparison ignores what the desired Job leaves out.
func preserveJob(live, want *batchv1.Job) preservedFields {
	var fields preservedFields
	if want.Spec.Selector != nil && !equality.Semantic.DeepEqual(want.Spec.Selector, live.Spec.Selector) {
		fields = fields.add("spec.selector", live.Spec.Selector, want.Spec.Selector)
	}
	if !templateCovered(want, live) {
		// The server adds to a template; only what the desired one states
		// is a difference.
		fields = fields.addStated("spec.template", live.Spec.Template, want.Spec.Template)
	}
	if want.Spec.Completions != nil && !equality.Semantic.DeepEqual(want.Spec.Completions, live.Spec.Completions) {
		fields = fields.add("spec.completions", live.Spec.Completions, want.Spec.Completions)
	}
	if want.Spec.CompletionMode != nil && !equality.Semantic.DeepEqual(want.Spec.CompletionMode, live.Spec.CompletionMode) {
		fields = fields.add("spec.completionMode", live.Spec.CompletionMode, want.Spec.CompletionMode)
	}
	if want.Spec.ManualSelector != nil && !equality.Semantic.DeepEqual(want.Spec.ManualSelector, live.Spec.ManualSelector) {
		fields = fields.add("spec.manualSelector", live.Spec.ManualSelector, want.Spec.ManualSelector)
	}
	want.Spec.Selector = live.Spec.Selector
	want.Spec.Template = live.Spec.Template
	want.Spec.Completions = live.Spec.Completions
	want.Spec.CompletionMode = live.Spec.CompletionMode
	want.Spec.ManualSelector = live.Spec.ManualSelector
	return fields
}

// templateCovered reports whether the live template holds everything the
// desired template states. The server only adds to a Job's template
// (defaults, and the labels it injects), so a field the desired template
// states with another value, or an element it adds or drops, is a
// difference; a field it leaves out is not.
func templateCovered(want, live *batchv1.Job) bool {
	w, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&want.Spec.Template)
	if err != nil {
		return false
	}
	l, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&live.Spec.Template)
	if err != nil {
		return false
	}
	return covers(w, l)
}

// covers reports whether live holds every value want states: maps by key,
// lists element by element with equal length, scalars by value.
func covers(want, live any) bool {
	switch w := want.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			lv, found := l[k]
			if !found {
				if wv == nil {
					continue
				}
				return false
			}
			if !covers(wv, lv) {
				return false
			}
		}
		return true
	case []any:
		l, ok := live.([]any)
		if !ok || len(l) != len(w) {
			return false
		}
		for i := range w {
			if !covers(w[i], l[i]) {
				return false
			}
		}
		return true
	default:
		return equality.Semantic.DeepEqual(want, live)
	}
}
