package vector_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/vector"
)

// TestRoleGroupWithAgentAndExporterRunsUnderRestrictedPodSecurity follows a
// reconcile: gate, discovery, rendering, validation before and after the
// ConfigMap exists, injection into a builders StatefulSet, a server-side
// dry-run, and pods that come up Ready.
func TestRoleGroupWithAgentAndExporterRunsUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ctx := t.Context()
	ns := testkit.RestrictedNamespace(t, cp.Client)
	scope := builders.Scope{Namespace: ns, Cluster: "kafka", Role: "broker", RoleGroup: "default",
		ProductName: "kafka", ProductVersion: "3.9.0"}
	target := sidecar.Target{Scope: scope, MainContainer: "kafka"}
	producers := []productlogging.Producer{{Container: "kafka", Framework: productlogging.Log4j2}}

	// Start-up: one manager with the exporter every role may use.
	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{Mode: sidecar.JMXContainer})
	require.NoError(t, err)
	base := sidecar.NewManager()
	require.NoError(t, base.Register(jmx))

	// The cluster names an aggregator and the user enables the agent.
	decision := vector.Decide(vector.GateInput{AggregatorConfigMap: "vector-aggregator",
		Logging: &commonsv1alpha1.LoggingSpec{EnableVectorAgent: ptr.To(true)}})
	require.True(t, decision.Inject && decision.Render, "%+v", decision)
	require.NoError(t, cp.Client.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "vector-aggregator", Namespace: ns},
		Data: map[string]string{vector.AddressKey: "vector-aggregator.logging.svc.cluster.local:6000"}}))
	address, err := vector.DiscoverAggregator(ctx, cp.Client, ns, "vector-aggregator")
	require.NoError(t, err)

	// The build.
	m := base.CloneForBuild()
	agent, err := vector.NewProvider(vector.ProviderOptions{Producers: producers})
	require.NoError(t, err)
	require.NoError(t, m.Register(agent))
	m.SetProductImage(sidecar.ProductImage{Reference: "registry.example/kafka:3.9.0", PullPolicy: corev1.PullIfNotPresent})

	// Before the role group's ConfigMap exists, validation names it for both.
	err = m.ValidateAll(ctx, cp.Client, target)
	var verr *builders.ValidationError
	require.ErrorAs(t, err, &verr)
	want := "sidecars[jmx-exporter]: sidecar \"jmx-exporter\" cannot start: ConfigMap " + ns + "/kafka-broker-default not found\n" +
		"sidecars[vector]: sidecar \"vector\" cannot start: ConfigMap " + ns + "/kafka-broker-default not found"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("validation before the ConfigMap (-want +got):\n%s", diff)
	}

	vectorYAML, err := vector.RenderConfig(vector.ConfigOptions{Producers: producers, Aggregator: address, Scope: scope})
	require.NoError(t, err)
	log4j2, err := productlogging.Render(producers[0], nil, decision.LoggingOptions())
	require.NoError(t, err)
	require.Contains(t, log4j2, producers[0].LogFilePath(), "the gate's answer must give the product a file appender")
	cm, err := builders.NewConfigMap(scope).WithData(map[string]string{
		vector.ConfigFileName:         vectorYAML,
		producers[0].ConfigFileName(): log4j2,
		sidecar.DefaultJMXConfigKey:   "rules:\n- pattern: \".*\"\n",
	}).Build()
	require.NoError(t, err)
	require.NoError(t, cp.Client.Create(ctx, cm))
	require.NoError(t, m.ValidateAll(ctx, cp.Client, target))

	sts, err := builders.NewStatefulSet(scope, corev1.Container{
		Name:         "kafka",
		Command:      []string{"/opkit/bin/kafka-server-start.sh"},
		VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/opkit/config"}},
	}).
		WithVolumes(corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: cm.Name}}}}).
		WithImage("registry.example/kafka:3.9.0", corev1.PullIfNotPresent).
		WithReplicas(2).
		Build()
	require.NoError(t, err)
	require.NoError(t, m.Inject(&sts.Spec.Template.Spec, target))

	// Pod Security is enforced on pods, so dry-run one as the StatefulSet
	// controller would make it, as well as the StatefulSet.
	pod := &corev1.Pod{ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(), Spec: *sts.Spec.Template.Spec.DeepCopy()}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	require.NoError(t, cp.Client.Create(ctx, pod, client.DryRunAll), "pod refused")
	require.NoError(t, cp.Client.Create(ctx, sts.DeepCopy(), client.DryRunAll), "StatefulSet refused")

	require.NoError(t, cp.Client.Create(ctx, sts))
	pods, err := testkit.WaitFor(ctx, func(ctx context.Context) ([]string, bool, error) {
		list := &corev1.PodList{}
		if err := cp.Client.List(ctx, list, client.InNamespace(ns), client.MatchingLabels(scope.SelectorLabels())); err != nil {
			return nil, false, err
		}
		var ready []string
		for _, p := range list.Items {
			if p.Status.Phase == corev1.PodRunning && podReady(&p) {
				ready = append(ready, p.Name+":"+containerList(&p))
			}
		}
		slices.Sort(ready)
		return ready, len(ready) == 2, nil
	}, 2*time.Minute)
	require.NoError(t, err)
	wantPods := []string{"kafka-broker-default-0:kafka,jmx-exporter,vector", "kafka-broker-default-1:kafka,jmx-exporter,vector"}
	if diff := cmp.Diff(wantPods, pods); diff != "" {
		t.Errorf("running pods (-want +got):\n%s", diff)
	}
	_, err = testkit.WaitFor(ctx, func(ctx context.Context) (int32, bool, error) {
		got := &appsv1.StatefulSet{}
		err := cp.Client.Get(ctx, client.ObjectKeyFromObject(sts), got)
		return got.Status.ReadyReplicas, err == nil && got.Status.ReadyReplicas == 2, err
	}, time.Minute)
	require.NoError(t, err)
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func containerList(p *corev1.Pod) string {
	var names []string
	for _, c := range p.Spec.Containers {
		names = append(names, c.Name)
	}
	return strings.Join(names, ",")
}
