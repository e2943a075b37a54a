package reconciler

import (
	"context"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// health is what the pass found of the workloads.
type health struct {
	// checked is set once the health step ran.
	checked bool
	// rolling lists the groups whose StatefulSet is not settled, with why.
	rolling []string
	// failing lists pods that cannot start or keep crashing.
	failing []string
	// refused lists pods the API server refused to create; see
	// health_refused.go.
	refused []string
	// checkErr is the product health check's failure.
	checkErr error
}

func (h health) available() bool {
	return h.checked && len(h.rolling) == 0 && len(h.failing) == 0 && len(h.refused) == 0 && h.checkErr == nil
}

// unhealthy says what is wrong with the pods: those refused, then those
// failing, one per line.
func (h health) unhealthy() string {
	return strings.Join(slices.Concat(h.refused, h.failing), "\n")
}

// podFailureReasons are container waiting reasons that do not heal by
// waiting: the pod needs a different spec, image or node.
var podFailureReasons = []string{
	"CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "InvalidImageName",
	"CreateContainerConfigError", "CreateContainerError", "RunContainerError",
}

// checkHealth reads the StatefulSet of every group applied this pass and
// the pods of those not settled, both from the cache (the pods at most
// once per ProgressInterval and group: a pod that cannot start keeps its
// StatefulSet unsettled), with the events saying why pods it lacks were
// refused (through the API reader, rarely: see health_refused.go), and,
// when all are settled, asks the product's health check.
func (r *Reconciler[CR]) checkHealth(ctx context.Context, p *pass, cr CR, targets []groupTarget) {
	h := health{checked: true}
	for _, t := range targets {
		sts := &appsv1.StatefulSet{}
		if err := r.client.Get(ctx, client.ObjectKey{Namespace: cr.GetNamespace(), Name: t.name}, sts); err != nil {
			if !apierrors.IsNotFound(err) {
				p.log.Error(err, "reading a StatefulSet for the health check", "statefulSet", t.name)
			}
			h.rolling = append(h.rolling, fmt.Sprintf("%s: StatefulSet not observed yet", groupName(t.ref)))
			continue
		}
		key := podCheckKey{owner: cr.GetUID(), statefulSet: t.name}
		why := notSettled(sts, t.replicas)
		if why == "" {
			r.podChecks.forget(key)
			continue
		}
		h.rolling = append(h.rolling, groupName(t.ref)+": "+why)
		report, ok := r.podChecks.recent(key)
		if !ok {
			report, ok = r.inspectPods(ctx, p, cr, t, sts)
			if ok && p.planning == nil {
				r.podChecks.record(key, report)
			}
		}
		h.failing = append(h.failing, report.failing...)
		h.refused = append(h.refused, report.refused...)
	}
	if h.available() && r.cfg.HealthCheck != nil {
		hctx, cancel := context.WithTimeout(ctx, r.cfg.HealthCheckTimeout)
		h.checkErr = r.cfg.HealthCheck(hctx, cr)
		cancel()
	}
	if len(h.rolling) > 0 {
		p.unsettle()
	}
	p.health = h
}

// notSettled says why a StatefulSet has not reached its spec, or "".
func notSettled(sts *appsv1.StatefulSet, want int32) string {
	s := sts.Status
	switch {
	case s.ObservedGeneration < sts.Generation:
		return "StatefulSet change not observed yet"
	case s.Replicas != want || s.ReadyReplicas != want:
		return fmt.Sprintf("%d of %d replicas ready", s.ReadyReplicas, want)
	case s.UpdatedReplicas != want || (s.UpdateRevision != "" && s.CurrentRevision != s.UpdateRevision):
		return fmt.Sprintf("rolling out, %d of %d replicas updated", s.UpdatedReplicas, want)
	}
	return ""
}

// podReport is what a look at an unsettled group's pods found.
type podReport struct {
	// failing lists the pods that cannot start, with why.
	failing []string
	// refused says why pods the group lacks were not created.
	refused []string
}

// inspectPods lists the group's pods that cannot start (a container
// waiting for a reason that does not heal, a failed pod, or a pod the
// scheduler cannot place) and says why pods its StatefulSet sts lacks
// were refused (refusedPods). ok is false when the pods could not be
// listed.
func (r *Reconciler[CR]) inspectPods(ctx context.Context, p *pass, cr CR, t groupTarget, sts *appsv1.StatefulSet) (podReport, bool) {
	pods := &corev1.PodList{}
	if err := r.listPods(ctx, cr, pods, client.InNamespace(cr.GetNamespace()), client.MatchingLabels(t.selector)); err != nil {
		p.log.Error(err, "listing pods for the health check", "roleGroup", groupName(t.ref))
		return podReport{}, false
	}
	var out podReport
	var names []string
	for i := range pods.Items {
		pod := &pods.Items[i]
		names = append(names, pod.Name)
		if why := podFailure(pod); why != "" {
			out.failing = append(out.failing, fmt.Sprintf("pod %s: %s", pod.Name, why))
		}
	}
	slices.Sort(out.failing)
	out.refused = r.refusedPods(ctx, p, sts, t.replicas, names)
	return out, true
}

// listPods lists pods of cr from the manager's cache or, when sharded,
// from the pod view by cr's bucket.
func (r *Reconciler[CR]) listPods(ctx context.Context, cr CR, pods *corev1.PodList, opts ...client.ListOption) error {
	if r.pods == nil {
		return r.client.List(ctx, pods, opts...)
	}
	return r.pods.List(ctx, cr.GetLabels()[r.cfg.Sharding.BucketLabel()], pods, opts...)
}

func podFailure(pod *corev1.Pod) string {
	if pod.Status.Phase == corev1.PodFailed {
		return "failed: " + pod.Status.Reason
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
			return "unschedulable: " + c.Message
		}
	}
	for _, cs := range slices.Concat(pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses) {
		if w := cs.State.Waiting; w != nil && slices.Contains(podFailureReasons, w.Reason) {
			return fmt.Sprintf("container %s %s: %s", cs.Name, w.Reason, strings.TrimSpace(w.Message))
		}
	}
	return ""
}
