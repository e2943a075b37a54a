package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

// The sample cluster as the script reads and changes it, and the states
// its steps wait for.

// kafka reads the sample cluster; nil when it cannot be read.
func (d *demo) kafka(ctx context.Context) *v1alpha1.KafkaCluster {
	k := &v1alpha1.KafkaCluster{}
	if err := d.env.client.Get(ctx, kafkaKey(), k); err != nil {
		return nil
	}
	return k
}

// updateKafka changes the sample cluster's spec, retrying conflicts.
func (d *demo) updateKafka(ctx context.Context, change func(*v1alpha1.KafkaCluster)) error {
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		k := &v1alpha1.KafkaCluster{}
		if err := d.env.client.Get(ctx, kafkaKey(), k); err != nil {
			return "", false, err
		}
		change(k)
		err := d.env.client.Update(ctx, k)
		if apierrors.IsConflict(err) {
			return "conflict", false, nil
		}
		return "", err == nil, err
	}, 30*time.Second)
	return err
}

func conditionIs(d *demo, typ, status string) func(context.Context) (string, bool, error) {
	return func(ctx context.Context) (string, bool, error) {
		k := d.kafka(ctx)
		if k == nil {
			return "not found", false, nil
		}
		for _, c := range k.Status.Conditions {
			if c.Type == typ {
				return fmt.Sprintf("%s=%s (%s)", typ, c.Status, firstLine(c.Message)), string(c.Status) == status && c.ObservedGeneration == k.Generation, nil
			}
		}
		return typ + " not set yet", false, nil
	}
}

func readyReplicas(d *demo, name string, n int32) func(context.Context) (string, bool, error) {
	return func(ctx context.Context) (string, bool, error) {
		sts := &appsv1.StatefulSet{}
		if err := d.env.client.Get(ctx, client.ObjectKey{Namespace: demoNamespace, Name: name}, sts); err != nil {
			if apierrors.IsNotFound(err) {
				return name + " not created yet", false, nil
			}
			return "", false, err
		}
		return fmt.Sprintf("%s: %d/%d ready", name, sts.Status.ReadyReplicas, n), sts.Status.ReadyReplicas == n && sts.Status.Replicas == n, nil
	}
}

func eventWith(d *demo, reason, part string) func(context.Context) (string, bool, error) {
	return func(ctx context.Context) (string, bool, error) {
		list := &eventsv1.EventList{}
		if err := d.env.client.List(ctx, list, client.InNamespace(demoNamespace)); err != nil {
			return "", false, err
		}
		for _, e := range list.Items {
			if e.Reason == reason && strings.Contains(e.Note, part) {
				return firstLine(e.Note), true, nil
			}
		}
		return "no " + reason + " event yet", false, nil
	}
}

func conditionMessage(k *v1alpha1.KafkaCluster, typ string) string {
	if k == nil {
		return ""
	}
	for _, c := range k.Status.Conditions {
		if c.Type == typ {
			return c.Message
		}
	}
	return ""
}

// conditionReason returns the reason of condition typ, if it describes
// the cluster's current generation.
func conditionReason(k *v1alpha1.KafkaCluster, typ string) string {
	for _, c := range k.Status.Conditions {
		if c.Type == typ && c.ObservedGeneration == k.Generation {
			return c.Reason
		}
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
