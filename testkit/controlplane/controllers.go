package controlplane

import (
	"context"
	"fmt"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Node labels and annotations of the fake nodes.
const (
	// NodeLabel marks the nodes kwok manages; its value is "kwok".
	NodeLabel = "type"
	// kwokNodeAnnotation tells kwok the node is fake.
	kwokNodeAnnotation = "kwok.x-k8s.io/node"
	// ZoneLabel spreads the fake nodes over zones zone-0, zone-1, zone-2.
	ZoneLabel = "topology.kubernetes.io/zone"
)

func (cp *ControlPlane) startControllers(ctx context.Context, dir string, nodes int) error {
	kubeconfig := "--kubeconfig=" + cp.processKubeconfig()
	starts := []struct {
		name string
		args []string
	}{
		{"kube-controller-manager", []string{
			kubeconfig,
			// Token minting needs a signing key the tests do not set up;
			// node IPAM needs a cluster CIDR that fake nodes do not use.
			"--controllers=*,-serviceaccount-token,-nodeipam",
			"--leader-elect=false",
			"--use-service-account-credentials=false",
			"--secure-port=0",
		}},
		{"kube-scheduler", []string{
			kubeconfig,
			"--leader-elect=false",
			"--secure-port=0",
		}},
		{"kwok", []string{
			kubeconfig,
			"--manage-all-nodes=true",
			"--server-address=",
			"--config=" + filepath.Join(dir, "kwok-stages.yaml"),
			// Renew each node's Lease: without it the node lifecycle
			// controller takes the nodes for dead after its grace period
			// (50 s) and marks every pod not ready.
			"--node-lease-duration-seconds=40",
		}},
	}
	for _, s := range starts {
		logPath := filepath.Join(cp.LogDir, s.name+".log")
		cp.logFiles = append(cp.logFiles, logPath)
		p, err := startProcess(s.name, filepath.Join(dir, s.name), logPath, s.args...)
		if err != nil {
			return err
		}
		cp.procs = append(cp.procs, p)
	}

	for i := range nodes {
		if err := cp.Client.Create(ctx, fakeNode(i)); err != nil {
			return fmt.Errorf("creating fake node %d: %w", i, err)
		}
	}
	if err := cp.waitNodesReady(ctx, nodes); err != nil {
		return err
	}
	if err := cp.waitDefaultServiceAccount(ctx); err != nil {
		return err
	}
	return cp.probePod(ctx)
}

// fakeNode is a node kwok manages, with room for many pods.
func fakeNode(i int) *corev1.Node {
	name := fmt.Sprintf("kwok-node-%d", i)
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("32"),
		corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods:   resource.MustParse("250"),
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Annotations: map[string]string{kwokNodeAnnotation: "fake"},
			Labels: map[string]string{
				NodeLabel:                "kwok",
				"kubernetes.io/hostname": name,
				"kubernetes.io/os":       "linux",
				"kubernetes.io/arch":     "amd64",
				ZoneLabel:                fmt.Sprintf("zone-%d", i%3),
			},
		},
		Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity},
	}
}

// poll runs cond until it is done, ctx ends or a process exits; the error
// then names the process and its log.
func (cp *ControlPlane) poll(ctx context.Context, what string, cond func(context.Context) (bool, error)) error {
	var last error
	err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		for _, p := range cp.procs {
			if err := p.exited(); err != nil {
				return false, err
			}
		}
		done, err := cond(ctx)
		if err != nil {
			last = err
		}
		return done, nil
	})
	if err != nil {
		if last != nil {
			return fmt.Errorf("waiting for %s: %w (last error: %v)", what, err, last) //nolint:errorlint // the wait ended for err; the last error is context for the reader
		}
		return fmt.Errorf("waiting for %s: %w", what, err)
	}
	return nil
}

func (cp *ControlPlane) waitNodesReady(ctx context.Context, want int) error {
	return cp.poll(ctx, fmt.Sprintf("%d kwok nodes to be Ready", want), func(ctx context.Context) (bool, error) {
		var nodes corev1.NodeList
		if err := cp.Client.List(ctx, &nodes, client.MatchingLabels{NodeLabel: "kwok"}); err != nil {
			return false, err
		}
		ready := 0
		for _, n := range nodes.Items {
			for _, c := range n.Status.Conditions {
				if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
					ready++
				}
			}
		}
		return ready == want, nil
	})
}

// waitDefaultServiceAccount waits for kube-controller-manager's service
// account controller to act, which proves its controllers are running.
func (cp *ControlPlane) waitDefaultServiceAccount(ctx context.Context) error {
	return cp.poll(ctx, "kube-controller-manager to create the default ServiceAccount", func(ctx context.Context) (bool, error) {
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: metav1.NamespaceDefault, Name: "default"}, &corev1.ServiceAccount{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// probePod runs one pod through the scheduler and kwok, proving both work.
func (cp *ControlPlane) probePod(ctx context.Context) error {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: metav1.NamespaceSystem, Name: "opkit-controlplane-probe"},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "probe", Image: "probe.invalid/probe:1"}},
		},
	}
	if err := cp.Client.Create(ctx, pod); err != nil {
		return fmt.Errorf("creating the probe pod: %w", err)
	}
	err := cp.poll(ctx, "the probe pod to be scheduled and Ready", func(ctx context.Context) (bool, error) {
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(pod), pod); err != nil {
			return false, err
		}
		for _, c := range pod.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	if err := cp.Client.Delete(ctx, pod, client.GracePeriodSeconds(0)); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting the probe pod: %w", err)
	}
	return nil
}
