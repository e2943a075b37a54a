package reconciler

import (
	"context"
	"errors"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
)

// DefaultHandler builds a role group from its declaration alone: the
// ConfigMap (the product's config files with the user's configOverrides,
// the logging files), the headless Service, the client Service when the
// role declares service ports, the metrics Service when it declares a
// metrics endpoint, and the StatefulSet (main container from the
// declaration, folded config, env and cli overrides, image, service
// account, sidecars, then pod overrides). A product usually supplies only
// ConfigFiles. The zero value builds a group without product config files.
type DefaultHandler[CR Cluster] struct {
	// ConfigFiles returns the product's config files of the group, file
	// name to entries; the extension of the name picks the format (see
	// builders.RenderConfigFile). The user's configOverrides of each file
	// are applied over the entries; a file the user overrides that the
	// product does not write is rendered from the overrides alone. Nil
	// means none.
	ConfigFiles func(ctx context.Context, cr CR, bc *BuildContext) (map[string]map[string]string, error)
	// Files returns files of the group's ConfigMap the product writes
	// whole (file name to content), such as a sidecar's YAML config; the
	// user's configOverrides do not reach them. Nil means none.
	Files func(ctx context.Context, cr CR, bc *BuildContext) (map[string]string, error)
	// Extras returns further objects of the group (see
	// RoleGroupObjects.Extras). Nil means none.
	Extras func(ctx context.Context, cr CR, bc *BuildContext) ([]client.Object, error)
}

var _ RoleGroupHandler[Cluster] = (*DefaultHandler[Cluster])(nil)

// BuildRoleGroup builds the group's objects; every error found is
// returned, joined, each naming its field.
func (h *DefaultHandler[CR]) BuildRoleGroup(ctx context.Context, cr CR, bc *BuildContext) (*RoleGroupObjects, error) {
	files := map[string]map[string]string{}
	if h.ConfigFiles != nil {
		f, err := h.ConfigFiles(ctx, cr, bc)
		if err != nil {
			return nil, err
		}
		files = f
	}
	var raw map[string]string
	if h.Files != nil {
		f, err := h.Files(ctx, cr, bc)
		if err != nil {
			return nil, err
		}
		raw = f
	}
	objs := &RoleGroupObjects{}
	var errs []error
	var err error
	if objs.ConfigMap, err = BuildConfigMap(bc, files, raw); err != nil {
		errs = append(errs, err)
	}
	if objs.HeadlessService, err = builders.NewHeadlessService(bc.Scope).
		WithPorts(servicePortsOf(bc.Declaration.ContainerPorts)...).
		WithPublishNotReadyAddresses(bc.Declaration.PublishNotReadyAddresses).Build(); err != nil {
		errs = append(errs, err)
	}
	if len(bc.Declaration.ServicePorts) > 0 {
		if objs.Service, err = builders.NewService(bc.Scope).WithPorts(bc.Declaration.ServicePorts...).Build(); err != nil {
			errs = append(errs, err)
		}
	}
	if m := bc.Declaration.Metrics; m != nil {
		path := m.Path
		if path == "" {
			path = "/metrics"
		}
		if objs.MetricsService, err = builders.NewMetricsService(bc.Scope, m.Port, path).Build(); err != nil {
			errs = append(errs, err)
		}
	}
	if objs.StatefulSet, err = BuildStatefulSet(bc).Build(); err != nil {
		errs = append(errs, err)
	}
	if h.Extras != nil {
		if objs.Extras, err = h.Extras(ctx, cr, bc); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return objs, nil
}

// BuildConfigMap builds the group's ConfigMap: files (name to the
// product's entries) with the user's configOverrides applied, every file
// the user overrides that files does not name, raw (name to content,
// verbatim) and the rendered logging files. A name given twice is the
// operator's error.
func BuildConfigMap(bc *BuildContext, files map[string]map[string]string, raw map[string]string) (*corev1.ConfigMap, error) {
	b := builders.NewConfigMap(bc.Scope)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		b.WithConfigFile(bc.ConfigFile(name, files[name]))
	}
	for _, name := range bc.OverriddenFiles() {
		if _, ok := files[name]; !ok {
			b.WithConfigFile(bc.ConfigFile(name, nil))
		}
	}
	b.WithData(bc.Logging.Files)
	for name := range raw {
		if _, clash := bc.Logging.Files[name]; clash {
			return nil, failure.Invalid(failure.AuthorOperator, "DefaultHandler.Files["+name+"]", "is also a logging file the reconciler renders")
		}
	}
	b.WithData(raw)
	return b.Build()
}

// BuildStatefulSet returns a StatefulSet builder configured from the build
// context: the declaration's main container, replicas, config volume, the
// folded config, data volume, env and overrides, image, service account,
// sidecars and pod overrides. A handler that needs more adds to it before
// calling Build (the pod overrides are merged at Build, so the user still
// wins).
func BuildStatefulSet(bc *BuildContext) *builders.StatefulSetBuilder {
	d := bc.Declaration
	main := corev1.Container{
		Name:           d.mainContainerName(bc.Role),
		Command:        slices.Clone(d.Command),
		Args:           slices.Clone(d.Args),
		Ports:          slices.Clone(d.ContainerPorts),
		Lifecycle:      d.Lifecycle.DeepCopy(),
		ReadinessProbe: d.ReadinessProbe.DeepCopy(),
		LivenessProbe:  d.LivenessProbe.DeepCopy(),
		StartupProbe:   d.StartupProbe.DeepCopy(),
	}
	b := builders.NewStatefulSet(bc.Scope, main).
		WithReplicas(bc.Replicas).
		WithConfigVolume(d.configMountPath()).
		WithConfig(bc.Config.Config, bc.Config.Affinity).
		WithEnv(d.Env...).
		WithEnvOverrides(bc.Overrides.EnvOverrides).
		WithCliOverrides(bc.Overrides.CliOverrides...).
		WithImage(bc.Image.Reference, bc.Image.PullPolicy).
		WithImagePullSecret(bc.Image.PullSecretName).
		WithServiceAccountName(bc.ServiceAccountName).
		WithInjectors(bc.Sidecars).
		WithPodOverrides(bc.PodOverrides()...)
	if d.DataVolume != nil {
		b.WithDataVolume(*d.DataVolume)
	}
	return b
}

// servicePortsOf turns container ports into the headless Service's ports.
func servicePortsOf(ports []corev1.ContainerPort) []corev1.ServicePort {
	out := make([]corev1.ServicePort, 0, len(ports))
	for _, p := range ports {
		out = append(out, corev1.ServicePort{Name: p.Name, Port: p.ContainerPort, Protocol: p.Protocol})
	}
	return out
}
