package servertest

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
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/vector"
)

// fetcher reads a requirement's object the way a reconciler does: NotFound
// is absence, any other failure is classified and returned.
func fetcher(ctx context.Context, r client.Reader) func(sidecar.Requirement) (sidecar.Object, error) {
	return func(req sidecar.Requirement) (sidecar.Object, error) {
		obj := req.NewObject()
		if err := r.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			if apierrors.IsNotFound(err) {
				return nil, nil
			}
			return nil, apierr.Classify(err)
		}
		return obj, nil
	}
}

// TestRoleGroupWithAgentAndExporterRunsUnderRestrictedPodSecurity follows a
// reconcile: gate, discovery, rendering, the requirements check before and
// after the ConfigMap exists, injection through the StatefulSet builder
// (with a user's override of the agent's resources), a server-side dry run
// in a restricted namespace, and pods that come up Ready.
func TestRoleGroupWithAgentAndExporterRunsUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ctx := t.Context()
	ns := testkit.RestrictedNamespace(t, cp.Client)
	scope := builders.Scope{Namespace: ns, Cluster: "kafka", Role: "broker", RoleGroup: "default",
		ProductName: "kafka", ProductVersion: "3.9.0"}
	target := builders.PodTarget{Scope: scope, MainContainer: "kafka"}
	producers := []productlogging.Producer{{Container: "kafka", Framework: productlogging.Log4j2}}

	// Start-up: one registry with the exporter every role may use.
	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{Mode: sidecar.JMXContainer})
	require.NoError(t, err)
	reg, err := sidecar.NewRegistry(jmx)
	require.NoError(t, err)

	// The cluster names an aggregator and the user enables the agent.
	decision := vector.Decide(vector.GateInput{AggregatorConfigMap: "vector-aggregator", Producers: producers,
		Logging: &commonsv1alpha1.LoggingSpec{EnableVectorAgent: ptr.To(true)}})
	require.True(t, decision.Inject && decision.Render, "%+v", decision)

	// Discovery: a ConfigMap the user named and has not created yet is
	// invalid input naming the field; once it exists, the address is read.
	aggregator := vector.AggregatorRequirement(scope, "vector-aggregator")
	discover := func() (string, error) {
		obj, err := fetcher(ctx, cp.Client)(aggregator)
		if err != nil {
			return "", err
		}
		cm, _ := obj.(*corev1.ConfigMap)
		return vector.AggregatorAddress(aggregator, cm)
	}
	_, err = discover()
	require.ErrorIs(t, err, vector.ErrConfigMapNotFound)
	require.Equal(t, "spec.vectorAggregatorConfigMapName", failure.FieldOf(err))
	require.NoError(t, cp.Client.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "vector-aggregator", Namespace: ns},
		Data: map[string]string{vector.AddressKey: "vector-aggregator.logging.svc.cluster.local:6000"}}))
	address, err := discover()
	require.NoError(t, err)

	// The build's plan: the registry's exporter and the role's agent.
	agent, err := vector.NewProvider(vector.ProviderOptions{Producers: producers})
	require.NoError(t, err)
	plan, err := reg.Plan(sidecar.PlanOptions{
		ProductImage: sidecar.ProductImage{Reference: "registry.example/kafka:3.9.0", PullPolicy: corev1.PullIfNotPresent},
		Extra:        []sidecar.Provider{agent},
	})
	require.NoError(t, err)

	// Before the role group's ConfigMap exists, both sidecars wait for it.
	err = sidecar.CheckAll(plan.Requirements(target), fetcher(ctx, cp.Client))
	require.Equal(t, failure.ClassRequeue, failure.ClassOf(err), "%v", err)
	want := "sidecar \"jmx-exporter\" needs ConfigMap " + ns + "/kafka-broker-default, which does not exist\n" +
		"sidecar \"vector\" needs ConfigMap " + ns + "/kafka-broker-default, which does not exist"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("check before the ConfigMap (-want +got):\n%s", diff)
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
	require.NoError(t, sidecar.CheckAll(plan.Requirements(target), fetcher(ctx, cp.Client)))

	sts, err := builders.NewStatefulSet(scope, corev1.Container{
		Name:    "kafka",
		Command: []string{"/opkit/bin/kafka-server-start.sh"},
	}).
		WithConfigVolume("/opkit/config").
		WithImage("registry.example/kafka:3.9.0", corev1.PullIfNotPresent).
		WithInjectors(plan).
		WithPodOverrides(builders.PodOverride{Layer: commonsv1alpha1.LayerRoleGroup,
			Patch: []byte(`{"spec":{"containers":[{"name":"vector","resources":{"limits":{"memory":"192Mi"},"requests":{"memory":"192Mi"}}}]}}`)}).
		WithReplicas(2).
		Build()
	require.NoError(t, err)

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
	wantPods := []string{
		"kafka-broker-default-0:kafka,jmx-exporter,vector=192Mi",
		"kafka-broker-default-1:kafka,jmx-exporter,vector=192Mi",
	}
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

// containerList names the pod's containers, the agent with its memory
// limit.
func containerList(p *corev1.Pod) string {
	var names []string
	for _, c := range p.Spec.Containers {
		name := c.Name
		if c.Name == vector.ProviderName {
			name += "=" + c.Resources.Limits.Memory().String()
		}
		names = append(names, name)
	}
	return strings.Join(names, ",")
}
