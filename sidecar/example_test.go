package sidecar_test

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
)

// A Registry is built once at start-up; each build derives an immutable
// Plan with its own product image and extra providers, which injects in
// (phase, name) order whatever order the providers were given in, and
// lists what must exist before the StatefulSet is applied.
func ExampleRegistry() {
	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{Mode: sidecar.JMXContainer})
	if err != nil {
		fmt.Println(err)
		return
	}
	reg, err := sidecar.NewRegistry(
		&stubProvider{name: "certificates", phase: sidecar.PhaseProducer},
		jmx,
	)
	if err != nil {
		fmt.Println(err)
		return
	}

	plan, err := reg.Plan(sidecar.PlanOptions{
		ProductImage: sidecar.ProductImage{Reference: "registry.example/kafka:3.9"},
		Extra:        []sidecar.Provider{&stubProvider{name: "log-agent", phase: sidecar.PhasePipeline}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	target := builders.PodTarget{
		Scope:         builders.Scope{Namespace: "data", Cluster: "kafka", Role: "broker", RoleGroup: "default"},
		MainContainer: "kafka",
	}
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "kafka"}}}
	if err := plan.Inject(spec, target); err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range spec.Containers {
		fmt.Println(strings.TrimSpace(c.Name + " " + c.Image))
	}
	for _, r := range plan.Requirements(target) {
		fmt.Println("requires", r.Kind, r.Namespace+"/"+r.Name, r.Keys, "for", r.Provider)
	}
	// Output:
	// kafka
	// certificates registry.example/kafka:3.9
	// jmx-exporter registry.example/kafka:3.9
	// log-agent registry.example/kafka:3.9
	// requires ConfigMap data/kafka-broker-default [jmx-exporter.yaml] for jmx-exporter
}

// Check judges an object the caller read (nil when there is none); the
// error's class says what to do: a missing object the user named is
// invalid input naming the field, one the framework writes is awaited.
func ExampleRequirement_Check() {
	userSecret := sidecar.Requirement{Kind: sidecar.KindSecret, Namespace: "data", Name: "creds", Keys: []string{"password"},
		Field: "spec.credentialsSecret", NamedBy: failure.AuthorUser, Provider: "auth"}
	ownConfigMap := sidecar.Requirement{Kind: sidecar.KindConfigMap, Namespace: "data", Name: "kafka-broker-default",
		Keys: []string{"jmx-exporter.yaml"}, NamedBy: failure.AuthorOperator, Provider: "jmx-exporter"}

	for _, err := range []error{
		userSecret.Check(nil),
		ownConfigMap.Check(nil),
		ownConfigMap.Check(&corev1.ConfigMap{Data: map[string]string{"other": ""}}),
		ownConfigMap.Check(&corev1.ConfigMap{Data: map[string]string{"jmx-exporter.yaml": "rules: []"}}),
	} {
		fmt.Println(failure.ClassOf(err), failure.AuthorOf(err), failure.Delay(err), err)
	}
	// Output:
	// invalid user 0s spec.credentialsSecret: sidecar "auth" needs Secret data/creds, which does not exist
	// requeue operator 5s sidecar "jmx-exporter" needs ConfigMap data/kafka-broker-default, which does not exist
	// invalid operator 0s sidecar "jmx-exporter" needs ConfigMap data/kafka-broker-default to hold "jmx-exporter.yaml"
	// other unknown 0s <nil>
}
