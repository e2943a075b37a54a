package apply

import (
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/equality"
)

// preserveJob makes a Job create-once: the selector and template the server
// generated or fixed at creation, completions, completion mode and manual
// selector stay as they are; parallelism, suspend, backoff limit, active
// deadline and TTL converge. A desired template or completion setting that
// differs is reported. The selector and the template's labels are filled in
// by the server, so the comparison ignores what the desired Job leaves out.
func preserveJob(live, want *batchv1.Job) []string {
	var fields []string
	if want.Spec.Selector != nil && !equality.Semantic.DeepEqual(want.Spec.Selector, live.Spec.Selector) {
		fields = append(fields, "spec.selector")
	}
	if !templateCovered(want, live) {
		fields = append(fields, "spec.template")
	}
	if want.Spec.Completions != nil && !equality.Semantic.DeepEqual(want.Spec.Completions, live.Spec.Completions) {
		fields = append(fields, "spec.completions")
	}
	if want.Spec.CompletionMode != nil && !equality.Semantic.DeepEqual(want.Spec.CompletionMode, live.Spec.CompletionMode) {
		fields = append(fields, "spec.completionMode")
	}
	if want.Spec.ManualSelector != nil && !equality.Semantic.DeepEqual(want.Spec.ManualSelector, live.Spec.ManualSelector) {
		fields = append(fields, "spec.manualSelector")
	}
	want.Spec.Selector = live.Spec.Selector
	want.Spec.Template = live.Spec.Template
	want.Spec.Completions = live.Spec.Completions
	want.Spec.CompletionMode = live.Spec.CompletionMode
	want.Spec.ManualSelector = live.Spec.ManualSelector
	return fields
}

// templateCovered reports whether the live template equals the desired one
// once the labels the server injects are accounted for and the desired
// template is defaulted the way the live one was: it compares the desired
// template's containers' images and commands and its labels as a subset.
func templateCovered(want, live *batchv1.Job) bool {
	for k, v := range want.Spec.Template.Labels {
		if live.Spec.Template.Labels[k] != v {
			return false
		}
	}
	wc, lc := want.Spec.Template.Spec.Containers, live.Spec.Template.Spec.Containers
	if len(wc) != len(lc) {
		return false
	}
	for i := range wc {
		if wc[i].Name != lc[i].Name || wc[i].Image != lc[i].Image ||
			!equality.Semantic.DeepEqual(wc[i].Command, lc[i].Command) || !equality.Semantic.DeepEqual(wc[i].Args, lc[i].Args) ||
			!equality.Semantic.DeepEqual(wc[i].Env, lc[i].Env) {
			return false
		}
	}
	return true
}
