package vector

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/sidecar"
)

// Names and paths of what the provider adds to a pod.
const (
	// ProviderName is the provider's name and its container's name.
	ProviderName = "vector"
	// LogVolumeName is the shared volume the producers write their log
	// files into and the agent reads them from.
	LogVolumeName = "log"
	// ConfigVolumeName is the volume holding vector.yaml.
	ConfigVolumeName = "vector-config"
	// ConfigMountPath is the directory of vector.yaml in the agent.
	ConfigMountPath = "/opkit/vector/config"
	// PodNameEnv is the agent's variable holding its pod's name.
	PodNameEnv = "POD_NAME"
)

// logVolumeHeadroom is room on the log volume for the agent's checkpoints.
const logVolumeHeadroom = 16 << 20

// DefaultLogVolumeSize returns the log volume size when none is declared:
// room for each producer's active and rolled file at the default size
// (productlogging.DefaultMaxFileSize), plus 16Mi for the agent.
func DefaultLogVolumeSize(producers []productlogging.Producer) resource.Quantity {
	return *resource.NewQuantity(int64(len(producers))*2*productlogging.DefaultMaxFileSize+logVolumeHeadroom, resource.BinarySI)
}

// ProviderOptions configures the agent for one role. The zero value of
// every field but Producers is a documented default.
type ProviderOptions struct {
	// Producers are the role's containers that write log files. Required.
	Producers []productlogging.Producer
	// LogVolumeSize bounds the shared log volume (the role's declared log
	// volume size); zero means DefaultLogVolumeSize(Producers).
	LogVolumeSize resource.Quantity
	// ConfigMapName is the ConfigMap holding vector.yaml; empty means the
	// role group's own ConfigMap.
	ConfigMapName string
	// Image runs the agent; empty means the build's product image
	// (sidecar.PlanOptions.ProductImage; product images ship the agent).
	Image string
	// Resources bounds the agent; empty means a request and limit of 100m
	// CPU and 128Mi memory.
	Resources corev1.ResourceRequirements
}

// Provider runs the Vector agent beside a role's log producers, in the
// pipeline phase: after every container that writes logs is in the pod.
// It is immutable; build it with NewProvider.
type Provider struct {
	opts  ProviderOptions
	image sidecar.ProductImage
}

var _ sidecar.ImageUser = &Provider{}

// NewProvider validates opts, fills in defaults and returns the provider.
// Options are the operator's (a role's declaration), so every problem is of
// class failure.ErrInvalid, blamed on the operator: no producers (Decide
// skips such a role), invalid producers (*productlogging.ProducerError) or
// a negative log volume size.
func NewProvider(opts ProviderOptions) (*Provider, error) {
	if len(opts.Producers) == 0 {
		return nil, failure.Invalid(failure.AuthorOperator, "logProducers", "vector provider: no log producers; Decide skips the agent for such a role")
	}
	if err := productlogging.ValidateProducers(opts.Producers); err != nil {
		return nil, fmt.Errorf("vector provider: %w", err)
	}
	if opts.LogVolumeSize.Sign() < 0 {
		return nil, failure.Invalid(failure.AuthorOperator, "logVolumeSize", "vector provider: %s is negative", opts.LogVolumeSize.String())
	}
	if opts.LogVolumeSize.IsZero() {
		opts.LogVolumeSize = DefaultLogVolumeSize(opts.Producers)
	}
	if len(opts.Resources.Requests) == 0 && len(opts.Resources.Limits) == 0 {
		q := corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(100, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(128<<20, resource.BinarySI),
		}
		opts.Resources = corev1.ResourceRequirements{Requests: q, Limits: q.DeepCopy()}
	}
	opts.Producers = slices.Clone(opts.Producers)
	slices.SortFunc(opts.Producers, func(a, b productlogging.Producer) int { return cmp.Compare(a.Container, b.Container) })
	return &Provider{opts: opts}, nil
}

// Name returns ProviderName.
func (p *Provider) Name() string { return ProviderName }

// Phase returns sidecar.PhasePipeline.
func (p *Provider) Phase() sidecar.Phase { return sidecar.PhasePipeline }

// WithProductImage returns a copy that runs image when Options.Image is
// empty.
func (p *Provider) WithProductImage(image sidecar.ProductImage) sidecar.Provider {
	c := *p
	c.image = image
	return &c
}

// Requirements declares the ConfigMap holding vector.yaml: the role
// group's own unless ProviderOptions.ConfigMapName names another, chosen by
// the framework or the operator either way.
func (p *Provider) Requirements(t builders.PodTarget) []sidecar.Requirement {
	return []sidecar.Requirement{{Kind: sidecar.KindConfigMap, Namespace: t.Scope.Namespace, Name: p.configMap(t),
		Keys: []string{ConfigFileName}, NamedBy: failure.AuthorOperator}}
}

func (p *Provider) configMap(t builders.PodTarget) string {
	return cmp.Or(p.opts.ConfigMapName, t.Scope.ResourceName())
}

// Sub-paths of the log volume: one tree mirrors the producers' log
// directories, the other holds the agent's data, so neither can shadow the
// other whatever directories the producers name.
const (
	filesSubPath = "files"
	agentSubPath = "agent"
)

// Inject adds the log volume, mounts each producer's log directory in its
// container, and adds the agent container reading every directory at the
// same path, so the paths in vector.yaml are the paths the producers write.
// Injected before the pod overrides (see builders.PodInjector), these
// mounts are framework mounts: a pod override mounting something else at a
// log directory is a mount violation naming podOverrides, and a user can
// override the agent's resources.
func (p *Provider) Inject(spec *corev1.PodSpec, t builders.PodTarget) error {
	image, policy := p.opts.Image, corev1.PullPolicy("")
	if image == "" {
		image, policy = p.image.Reference, p.image.PullPolicy
	}
	if image == "" {
		return fmt.Errorf("no image for the %s container: set ProviderOptions.Image or the product image", ProviderName)
	}
	size := p.opts.LogVolumeSize.DeepCopy()
	if err := sidecar.AddVolume(spec, corev1.Volume{Name: LogVolumeName, VolumeSource: corev1.VolumeSource{
		EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: &size}}}); err != nil {
		return err
	}
	if err := sidecar.AddVolume(spec, corev1.Volume{Name: ConfigVolumeName, VolumeSource: corev1.VolumeSource{
		ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: p.configMap(t)},
			Items:                []corev1.KeyToPath{{Key: ConfigFileName, Path: ConfigFileName}},
		}}}); err != nil {
		return err
	}

	dirs := map[string]bool{}
	for _, prod := range p.opts.Producers {
		c := sidecar.Container(spec, prod.Container)
		if c == nil {
			return fmt.Errorf("log producer container %q is not in the pod", prod.Container)
		}
		dir := prod.LogDirectory()
		dirs[dir] = true
		if err := sidecar.AddVolumeMount(c, logMount(dir)); err != nil {
			return err
		}
	}

	agent := corev1.Container{
		Name:            ProviderName,
		Image:           image,
		ImagePullPolicy: cmp.Or(policy, corev1.PullIfNotPresent),
		Command:         []string{"vector", "--config", path.Join(ConfigMountPath, ConfigFileName)},
		Env: []corev1.EnvVar{{Name: PodNameEnv, ValueFrom: &corev1.EnvVarSource{
			FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}},
		Resources: *p.opts.Resources.DeepCopy(),
		VolumeMounts: []corev1.VolumeMount{
			{Name: ConfigVolumeName, MountPath: ConfigMountPath, ReadOnly: true},
			{Name: LogVolumeName, MountPath: DataDir, SubPath: agentSubPath},
		},
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		m := logMount(dir)
		m.ReadOnly = true
		agent.VolumeMounts = append(agent.VolumeMounts, m)
	}
	builders.HardenContainer(&agent, builders.Hardening{ReadOnlyRootFilesystem: true})
	return sidecar.AddContainer(spec, agent)
}

// logMount mounts the log volume's mirror of dir at dir.
func logMount(dir string) corev1.VolumeMount {
	sub := path.Join(filesSubPath, strings.TrimPrefix(path.Clean(dir), "/"))
	return corev1.VolumeMount{Name: LogVolumeName, MountPath: dir, SubPath: sub}
}
