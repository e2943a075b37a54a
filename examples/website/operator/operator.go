package operator

import (
	"embed"
	"fmt"
	"io/fs"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
	"github.com/opkit-dev/opkit/generators/kustomize"
	"github.com/opkit-dev/opkit/reconciler/component"
)

// Name is the reconciler's name: the field manager of its writes, its
// finalizer and the prefix of the annotations it reads and writes.
const Name = "website.examples.opkit.dev"

// ShardRing names the ring of the operator's sharded replicas: the
// Websites' owner label is "shard.opkit.dev/website".
const ShardRing = "website"

// sources holds the chart and the kustomization.
//
//go:embed all:chart ops
var sources embed.FS

// Kinds are the kinds the chart and the kustomization render.
func Kinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{
		corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		corev1.SchemeGroupVersion.WithKind("Secret"),
		corev1.SchemeGroupVersion.WithKind("Service"),
		appsv1.SchemeGroupVersion.WithKind("Deployment"),
		networkingv1.SchemeGroupVersion.WithKind("NetworkPolicy"),
		policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
	}
}

// Options are the operator's settings. The zero value is usable.
type Options struct {
	// Sources replaces the embedded chart ("chart") and kustomization
	// ("ops"), to try changes without a rebuild. Nil means the embedded
	// ones.
	Sources fs.FS
	// Namespaces restricts the operator to these namespaces. Empty means
	// every namespace.
	Namespaces []string
	// Sharding spreads the Websites over the operator's replicas (a
	// *shard.Member); nil means one replica reconciles them all.
	Sharding component.Sharding
}

// Scheme returns a scheme with the built-in kinds and Website.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(v1alpha1.AddToScheme(s))
	return s
}

// New returns the component reconciler for Website: the chart renders the
// web server, the kustomization its policies, one after the other.
func New(opts Options) (*component.Reconciler[*v1alpha1.Website], error) {
	src := opts.Sources
	if src == nil {
		src = sources
	}
	chart, err := helm.New(src, "chart", helm.Options{})
	if err != nil {
		return nil, fmt.Errorf("website chart: %w", err)
	}
	ops, err := kustomize.New(src, "ops", kustomize.Options{})
	if err != nil {
		return nil, fmt.Errorf("website kustomization: %w", err)
	}
	return component.New[*v1alpha1.Website](Name, generators.Concat(chart, ops), component.Options{
		Kinds: Kinds(), StrictKinds: true, Namespaces: opts.Namespaces, Sharding: opts.Sharding,
	})
}
