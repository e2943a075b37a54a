package sidecar_test

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
)

// A Manager injects in (phase, name) order, whatever order providers were
// registered in, and each build works on its own clone.
func ExampleManager() {
	base := sidecar.NewManager()
	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{Mode: sidecar.JMXContainer})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range []sidecar.Provider{
		&stubProvider{name: "log-agent", phase: sidecar.PhasePipeline},
		jmx,
		&stubProvider{name: "certificates", phase: sidecar.PhaseProducer},
	} {
		if err := base.Register(p); err != nil {
			fmt.Println(err)
			return
		}
	}

	m := base.CloneForBuild()
	m.SetProductImage(sidecar.ProductImage{Reference: "registry.example/kafka:3.9"})
	target := sidecar.Target{
		Scope:         builders.Scope{Namespace: "data", Cluster: "kafka", Role: "broker", RoleGroup: "default"},
		MainContainer: "kafka",
	}
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "kafka"}}}
	if err := m.Inject(spec, target); err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range spec.Containers {
		fmt.Println(strings.TrimSpace(c.Name + " " + c.Image))
	}
	// Output:
	// kafka
	// certificates registry.example/kafka:3.9
	// jmx-exporter registry.example/kafka:3.9
	// log-agent registry.example/kafka:3.9
}
