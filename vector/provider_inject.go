package vector

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/sidecar"
)

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
func (p *Provider) Inject(spec *corev1.PodSpec, t sidecar.Target) error {
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
	sidecar.HardenContainer(&agent)
	return sidecar.AddContainer(spec, agent)
}

// logMount mounts the log volume's mirror of dir at dir.
func logMount(dir string) corev1.VolumeMount {
	sub := path.Join(filesSubPath, strings.TrimPrefix(path.Clean(dir), "/"))
	return corev1.VolumeMount{Name: LogVolumeName, MountPath: dir, SubPath: sub}
}
