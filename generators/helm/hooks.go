package helm

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	release "helm.sh/helm/v4/pkg/release/v1"
)

// Hook weights the generator accepts. A pre-install or pre-upgrade hook of
// weight w is applied in wave w-HookWaveOffset (from -32767 to -1, before
// the chart's other objects in wave 0); a post-install or post-upgrade hook
// in wave w+HookWaveOffset (from 1 to 32767, after them).
const (
	MinHookWeight  = -16383
	MaxHookWeight  = 16383
	HookWaveOffset = 16384
)

// ResourcePolicyAnnotation is Helm's annotation that keeps an object when
// its release is uninstalled; the value KeepPolicy maps to the object
// reconciler's orphan delete policy.
const (
	ResourcePolicyAnnotation = "helm.sh/resource-policy"
	KeepPolicy               = "keep"
)

// hook is the Helm hook metadata of one object.
type hook struct {
	events   []release.HookEvent
	weight   int
	policies []release.HookDeletePolicy
}

var knownEvents = map[string]release.HookEvent{
	string(release.HookPreInstall): release.HookPreInstall, string(release.HookPostInstall): release.HookPostInstall,
	string(release.HookPreUpgrade): release.HookPreUpgrade, string(release.HookPostUpgrade): release.HookPostUpgrade,
	string(release.HookPreDelete): release.HookPreDelete, string(release.HookPostDelete): release.HookPostDelete,
	string(release.HookPreRollback): release.HookPreRollback, string(release.HookPostRollback): release.HookPostRollback,
	string(release.HookTest): release.HookTest, "test-success": release.HookTest,
}

// hookEvents parses the value of a helm.sh/hook annotation as Helm does
// (events separated by commas, case and blanks ignored): the events up to
// the first one Helm does not know, and that one, or "" when it knows all.
func hookEvents(value string) ([]release.HookEvent, string) {
	var events []release.HookEvent
	for t := range strings.SplitSeq(value, ",") {
		t = strings.ToLower(strings.TrimSpace(t))
		e, ok := knownEvents[t]
		if !ok {
			return events, t
		}
		events = append(events, e)
	}
	return events, ""
}

// parseHook reads the helm.sh/hook annotations of obj; nil when it is no
// hook.
func parseHook(obj *unstructured.Unstructured) (*hook, error) {
	ann := obj.GetAnnotations()
	types, ok := ann[release.HookAnnotation]
	if !ok {
		return nil, nil
	}
	events, unknown := hookEvents(types)
	if unknown != "" {
		return nil, fmt.Errorf("%s: unknown hook %q", release.HookAnnotation, unknown)
	}
	h := &hook{events: events}
	if w, ok := ann[release.HookWeightAnnotation]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < MinHookWeight || n > MaxHookWeight {
			return nil, fmt.Errorf("%s: %q is not an integer in [%d, %d]", release.HookWeightAnnotation, w, MinHookWeight, MaxHookWeight)
		}
		h.weight = n
	}
	if ps, ok := ann[release.HookDeleteAnnotation]; ok {
		for p := range strings.SplitSeq(ps, ",") {
			switch p := release.HookDeletePolicy(strings.ToLower(strings.TrimSpace(p))); p {
			case release.HookSucceeded, release.HookBeforeHookCreation:
				h.policies = append(h.policies, p)
			case release.HookFailed:
				return nil, fmt.Errorf("%s: %s is not supported: a hook that fails stays, so that it can be inspected and retried", release.HookDeleteAnnotation, p)
			default:
				return nil, fmt.Errorf("%s: unknown policy %q", release.HookDeleteAnnotation, p)
			}
		}
	} else {
		// Helm's default.
		h.policies = []release.HookDeletePolicy{release.HookBeforeHookCreation}
	}
	return h, nil
}

// mapObject turns obj's Helm annotations into the object engine's
// annotations. It reports false for a hook that does not run at this
// revision (test and rollback hooks never do; upgrade-only hooks do not on
// install).
func mapObject(obj *unstructured.Unstructured, env generators.Environment) (bool, error) {
	if obj.GetAnnotations()[ResourcePolicyAnnotation] == KeepPolicy {
		if err := annotate(obj, env, generators.SuffixDeletePolicy, generators.DeletePolicyOrphan); err != nil {
			return false, err
		}
	}
	h, err := parseHook(obj)
	if err != nil || h == nil {
		return err == nil, err
	}
	var install, upgrade []release.HookEvent
	for _, e := range h.events {
		switch e {
		case release.HookPreDelete, release.HookPostDelete:
			return false, fmt.Errorf("%s: %s hooks are not supported: the object engine deletes a component's objects itself, in the waves of their %s annotations",
				release.HookAnnotation, e, generators.SuffixDeleteOrder)
		case release.HookPreInstall, release.HookPostInstall:
			install = append(install, e)
		case release.HookPreUpgrade, release.HookPostUpgrade:
			upgrade = append(upgrade, e)
		}
	}
	active := install
	if !env.IsInstall() && len(upgrade) > 0 {
		active = upgrade
	}
	if len(active) == 0 {
		return false, nil
	}
	order := h.weight + HookWaveOffset
	if slices.Contains(active, release.HookPreInstall) || slices.Contains(active, release.HookPreUpgrade) {
		order = h.weight - HookWaveOffset
	}
	policy := generators.ReconcilePolicyOnObjectOrComponentChange
	if len(upgrade) == 0 {
		policy = generators.ReconcilePolicyOnce
	}
	set := [][2]string{
		{generators.SuffixApplyOrder, strconv.Itoa(order)},
		{generators.SuffixReconcilePolicy, policy},
	}
	if slices.Contains(h.policies, release.HookBeforeHookCreation) {
		set = append(set, [2]string{generators.SuffixUpdatePolicy, generators.UpdatePolicyRecreate})
	}
	if slices.Contains(h.policies, release.HookSucceeded) {
		set = append(set, [2]string{generators.SuffixPurgeOrder, strconv.Itoa(order)})
	}
	for _, kv := range set {
		if err := annotate(obj, env, kv[0], kv[1]); err != nil {
			return false, err
		}
	}
	return true, nil
}

// annotate sets <reconciler>/<suffix> to value, refusing to overwrite a
// different value the template wrote itself.
func annotate(obj *unstructured.Unstructured, env generators.Environment, suffix, value string) error {
	key, err := env.AnnotationKey(suffix)
	if err != nil {
		return err
	}
	ann := obj.GetAnnotations()
	if old, ok := ann[key]; ok && old != value {
		return fmt.Errorf("annotation %s is %q, but its Helm annotations make it %q", key, old, value)
	}
	if ann == nil {
		ann = map[string]string{}
	}
	ann[key] = value
	obj.SetAnnotations(ann)
	return nil
}

// templateError blames a mapping failure on the chart, unless it is the
// caller's (an Environment without reconciler name).
func templateError(source string, err error) error {
	var ce *generators.ConfigError
	if errors.As(err, &ce) {
		return err
	}
	return &generators.TemplateError{Template: source, Author: failure.AuthorOperator, Err: err}
}
