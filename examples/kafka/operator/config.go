package operator

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/sidecar"
)

// Name is the reconciler's name: the field manager of its writes and the
// prefix of the annotations its object engine stamps.
const Name = "kafka.examples.opkit.dev"

// ManagedBy is the app.kubernetes.io/managed-by value of what it builds.
const ManagedBy = "kafka-operator"

// Options are the operator's settings. The zero value is usable.
type Options struct {
	// Image is the operator's default image. Zero means
	// quay.io/opkit-examples/kafka:4.1.0.
	Image commonsv1alpha1.ImageSpec
	// Namespaces restricts the operator to these namespaces. Empty means
	// every namespace.
	Namespaces []string
}

// Scheme returns a scheme with the built-in kinds and KafkaCluster.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(v1alpha1.AddToScheme(s))
	return s
}

// Config returns the product reconciler's configuration for KafkaCluster.
func Config(opts Options) (reconciler.Config[*v1alpha1.KafkaCluster], error) {
	image := opts.Image
	if image == (commonsv1alpha1.ImageSpec{}) {
		image = commonsv1alpha1.ImageSpec{Repo: "quay.io/opkit-examples", ProductVersion: "4.1.0"}
	}
	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{MetricsPort: metricsPort, JavaOptionsEnv: "KAFKA_OPTS"})
	if err != nil {
		return reconciler.Config[*v1alpha1.KafkaCluster]{}, err
	}
	sidecars, err := sidecar.NewRegistry(jmx)
	if err != nil {
		return reconciler.Config[*v1alpha1.KafkaCluster]{}, err
	}
	hooks := reconciler.NewHooks[*v1alpha1.KafkaCluster]()
	if err := hooks.AddCluster(reconciler.ClusterHook[*v1alpha1.KafkaCluster]{
		Name: "bootstrap-status",
		PostReconcile: func(_ context.Context, cr *v1alpha1.KafkaCluster) error {
			cr.Status.BootstrapServers = bootstrapServers(cr)
			return nil
		},
	}); err != nil {
		return reconciler.Config[*v1alpha1.KafkaCluster]{}, err
	}
	return reconciler.Config[*v1alpha1.KafkaCluster]{
		Name:      Name,
		For:       &v1alpha1.KafkaCluster{},
		Roles:     reconciler.RoleProviderFunc[*v1alpha1.KafkaCluster](declareRoles),
		Image:     imageresolve.Options{ProductName: "kafka", Defaults: image},
		ManagedBy: ManagedBy,
		Sidecars:  sidecars,
		Handler: &reconciler.DefaultHandler[*v1alpha1.KafkaCluster]{
			ConfigFiles: configFiles,
			Files:       rawFiles,
		},
		Dependencies: func(cr *v1alpha1.KafkaCluster) []reconciler.Dependency {
			return []reconciler.Dependency{{Kind: "Secret", Name: cr.Spec.CredentialsSecret, Field: "spec.credentialsSecret"}}
		},
		ClusterObjects: clusterObjects,
		Hooks:          hooks,
		Namespaces:     opts.Namespaces,
	}, nil
}

// New returns the product reconciler for KafkaCluster, configured by
// Config.
func New(opts Options) (*reconciler.Reconciler[*v1alpha1.KafkaCluster], error) {
	cfg, err := Config(opts)
	if err != nil {
		return nil, err
	}
	r, err := reconciler.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("kafka operator: %w", err)
	}
	return r, nil
}

// roleGroups returns a role's groups, sorted, with their replicas.
func roleGroups(cr *v1alpha1.KafkaCluster, role string) []groupReplicas {
	rs, ok := cr.Spec.Roles[role]
	if !ok {
		return nil
	}
	var out []groupReplicas
	for name, g := range rs.RoleGroups {
		n := int32(1)
		if g.Replicas != nil {
			n = *g.Replicas
		}
		out = append(out, groupReplicas{name, n})
	}
	slices.SortFunc(out, func(a, b groupReplicas) int { return compareStrings(a.name, b.name) })
	return out
}

type groupReplicas struct {
	name     string
	replicas int32
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
