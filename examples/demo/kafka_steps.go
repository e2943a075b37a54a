package main

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/examples/internal/manifest"
	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	"github.com/opkit-dev/opkit/examples/kafka/samples"
	"github.com/opkit-dev/opkit/reconciler"
)

// The sample cluster's name (samples/kafkacluster.yaml).
const kafkaName = "events"

func kafkaKey() client.ObjectKey { return client.ObjectKey{Namespace: demoNamespace, Name: kafkaName} }

func groupName(role, group string) string {
	return builders.RoleGroupResourceName(kafkaName, role, group)
}

// kafkaSteps is the product operator's part of the script.
func kafkaSteps() []step {
	return []step{
		{"apply the KafkaCluster sample and watch it converge", applySamples},
		{"scale role group broker/default from 3 to 4", scaleBrokers(4)},
		{"add role group broker/burst", addBurstGroup},
		{"remove role group broker/burst: drained, then reclaimed", removeBurstGroup},
		{"edit a managed ConfigMap by hand: the edit is reverted", revertEdit},
		{"resize the brokers' storage: reported, not applied", resizeStorage},
		{"misspell a role (brokr): reported with its near miss", typoRole},
		{"pause reconciliation, scale while paused, resume", pauseAndResume},
	}
}

// applySamples creates what samples/*.yaml holds and waits for the cluster
// to be available.
func applySamples(ctx context.Context, d *demo) error {
	for _, file := range []string{"dependencies.yaml", "kafkacluster.yaml"} {
		if err := createManifests(ctx, d.env.client, samples.Files, file); err != nil {
			return err
		}
	}
	return d.waitFor(ctx, "the KafkaCluster is Available", 4*time.Minute, conditionIs(d, commonsv1alpha1.ConditionAvailable, "True"))
}

// createManifests creates every object of a sample file in the demo
// namespace.
func createManifests(ctx context.Context, c client.Client, fsys fs.FS, file string) error {
	objs, err := manifest.Objects(fsys, file)
	if err != nil {
		return err
	}
	for _, u := range objs {
		u.SetNamespace(demoNamespace)
		if err := c.Create(ctx, u); err != nil {
			return fmt.Errorf("%s: creating %s %s: %w", file, u.GetKind(), u.GetName(), err)
		}
	}
	return nil
}

func scaleBrokers(n int32) func(context.Context, *demo) error {
	return func(ctx context.Context, d *demo) error {
		if err := d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) {
			g := k.Spec.Roles["broker"].RoleGroups["default"]
			g.Replicas = ptr.To(n)
			k.Spec.Roles["broker"].RoleGroups["default"] = g
		}); err != nil {
			return err
		}
		return d.waitFor(ctx, fmt.Sprintf("broker/default runs %d ready pods", n), 2*time.Minute, readyReplicas(d, groupName("broker", "default"), n))
	}
}

func addBurstGroup(ctx context.Context, d *demo) error {
	if err := d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) {
		k.Spec.Roles["broker"].RoleGroups["burst"] = commonsv1alpha1.RoleGroupSpec{Replicas: ptr.To[int32](2)}
	}); err != nil {
		return err
	}
	return d.waitFor(ctx, "broker/burst runs 2 ready pods", 2*time.Minute, readyReplicas(d, groupName("broker", "burst"), 2))
}

func removeBurstGroup(ctx context.Context, d *demo) error {
	if err := d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) {
		delete(k.Spec.Roles["broker"].RoleGroups, "burst")
	}); err != nil {
		return err
	}
	if err := d.waitFor(ctx, "the cleanup of broker/burst is under way", time.Minute, conditionIs(d, commonsv1alpha1.ConditionOrphanCleanupPending, "True")); err != nil {
		return err
	}
	name := groupName("broker", "burst")
	return d.waitFor(ctx, "broker/burst's StatefulSet, ConfigMap and Services are gone", 3*time.Minute, func(ctx context.Context) (string, bool, error) {
		var left []string
		for _, o := range []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}} {
			if err := d.env.client.Get(ctx, client.ObjectKey{Namespace: demoNamespace, Name: name}, o); err == nil {
				left = append(left, fmt.Sprintf("%T", o)[len("*v1."):])
			} else if !apierrors.IsNotFound(err) {
				return "", false, err
			}
		}
		cleanup := conditionMessage(d.kafka(ctx), commonsv1alpha1.ConditionOrphanCleanupPending)
		return fmt.Sprintf("left: %v; %s", left, cleanup), len(left) == 0, nil
	})
}

func revertEdit(ctx context.Context, d *demo) error {
	cm := &corev1.ConfigMap{}
	key := client.ObjectKey{Namespace: demoNamespace, Name: groupName("broker", "default")}
	if err := d.env.client.Get(ctx, key, cm); err != nil {
		return err
	}
	want := cm.Data["server.properties"]
	cm.Data["server.properties"] = "# edited by hand\n" + want
	if err := d.env.client.Update(ctx, cm); err != nil {
		return err
	}
	edited := time.Now()
	err := d.waitFor(ctx, "the operator reverts the edit", 30*time.Second, func(ctx context.Context) (string, bool, error) {
		got := &corev1.ConfigMap{}
		if err := d.env.client.Get(ctx, key, got); err != nil {
			return "", false, err
		}
		return "edited", got.Data["server.properties"] == want, nil
	})
	if err == nil {
		d.view.note(fmt.Sprintf("reverted %s after the edit", time.Since(edited).Round(time.Millisecond)))
	}
	return err
}

func resizeStorage(ctx context.Context, d *demo) error {
	setStorage := func(q string) func(*v1alpha1.KafkaCluster) {
		return func(k *v1alpha1.KafkaCluster) {
			rs := k.Spec.Roles["broker"]
			if rs.Config == nil {
				rs.Config = &commonsv1alpha1.RoleGroupConfigSpec{}
			}
			rs.Config.Resources = &commonsv1alpha1.ResourcesSpec{Storage: &commonsv1alpha1.StorageResource{Capacity: ptr.To(resource.MustParse(q))}}
			k.Spec.Roles["broker"] = rs
		}
	}
	if err := d.updateKafka(ctx, setStorage("2Gi")); err != nil {
		return err
	}
	if err := d.waitFor(ctx, "an ImmutableFieldIgnored warning names the claim template", time.Minute,
		eventWith(d, reconciler.ReasonImmutableFieldIgnored, "spec.volumeClaimTemplates")); err != nil {
		return err
	}
	if err := d.waitFor(ctx, "ReconcileComplete is False: the claim template keeps its size", time.Minute,
		func(ctx context.Context) (string, bool, error) {
			k := d.kafka(ctx)
			msg := conditionMessage(k, commonsv1alpha1.ConditionReconcileComplete)
			return firstLine(msg), k != nil && strings.Contains(msg, "spec.volumeClaimTemplates") &&
				conditionReason(k, commonsv1alpha1.ConditionReconcileComplete) == reconciler.ReasonImmutableFieldIgnored, nil
		}); err != nil {
		return err
	}
	// Back to the size the volumes have, so later steps start clean.
	return d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) {
		rs := k.Spec.Roles["broker"]
		rs.Config.Resources = nil
		k.Spec.Roles["broker"] = rs
	})
}

func typoRole(ctx context.Context, d *demo) error {
	if err := d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) {
		k.Spec.Roles["brokr"] = commonsv1alpha1.RoleSpec{RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {Replicas: ptr.To[int32](1)}}}
	}); err != nil {
		return err
	}
	if err := d.waitFor(ctx, `Degraded names spec.roles.brokr and suggests "broker"`, time.Minute, func(ctx context.Context) (string, bool, error) {
		msg := conditionMessage(d.kafka(ctx), commonsv1alpha1.ConditionDegraded)
		return msg, strings.Contains(msg, "spec.roles.brokr") && strings.Contains(msg, `did you mean "broker"`), nil
	}); err != nil {
		return err
	}
	if err := d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) { delete(k.Spec.Roles, "brokr") }); err != nil {
		return err
	}
	return d.waitFor(ctx, "the cluster is no longer Degraded", time.Minute, conditionIs(d, commonsv1alpha1.ConditionDegraded, "False"))
}

func pauseAndResume(ctx context.Context, d *demo) error {
	if err := d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) {
		k.Spec.ClusterOperation = &commonsv1alpha1.ClusterOperationSpec{ReconciliationPaused: true}
		g := k.Spec.Roles["broker"].RoleGroups["default"]
		g.Replicas = ptr.To[int32](5)
		k.Spec.Roles["broker"].RoleGroups["default"] = g
	}); err != nil {
		return err
	}
	if err := d.waitFor(ctx, "the operator reports Paused for the new generation", time.Minute, func(ctx context.Context) (string, bool, error) {
		k := d.kafka(ctx)
		for _, c := range k.Status.Conditions {
			if c.Type == commonsv1alpha1.ConditionPaused {
				return string(c.Status), c.Status == "True" && c.ObservedGeneration == k.Generation, nil
			}
		}
		return "no Paused condition", false, nil
	}); err != nil {
		return err
	}
	sts := &appsv1.StatefulSet{}
	if err := d.env.client.Get(ctx, client.ObjectKey{Namespace: demoNamespace, Name: groupName("broker", "default")}, sts); err != nil {
		return err
	}
	if *sts.Spec.Replicas != 4 {
		return fmt.Errorf("%w: a paused cluster was scaled to %d", errStep, *sts.Spec.Replicas)
	}
	d.view.note("paused: broker/default stays at 4 replicas although the spec asks for 5")
	if err := d.updateKafka(ctx, func(k *v1alpha1.KafkaCluster) { k.Spec.ClusterOperation = nil }); err != nil {
		return err
	}
	return d.waitFor(ctx, "after resuming, broker/default runs 5 ready pods", 2*time.Minute, readyReplicas(d, groupName("broker", "default"), 5))
}

// deleteKafka deletes the cluster and waits for garbage collection.
func deleteKafka(ctx context.Context, d *demo) error {
	k := d.kafka(ctx)
	if err := d.env.client.Delete(ctx, k); err != nil {
		return err
	}
	return d.waitFor(ctx, "garbage collection removed the StatefulSets and ConfigMaps", 2*time.Minute, func(ctx context.Context) (string, bool, error) {
		stss := &appsv1.StatefulSetList{}
		cms := &corev1.ConfigMapList{}
		if err := d.env.client.List(ctx, stss, client.InNamespace(demoNamespace)); err != nil {
			return "", false, err
		}
		if err := d.env.client.List(ctx, cms, client.InNamespace(demoNamespace), client.MatchingLabels{commonsv1alpha1.LabelInstance: kafkaName}); err != nil {
			return "", false, err
		}
		return fmt.Sprintf("%d StatefulSets, %d ConfigMaps left", len(stss.Items), len(cms.Items)), len(stss.Items)+len(cms.Items) == 0, nil
	})
}
