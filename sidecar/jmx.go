package sidecar

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
)

// JMXMode is how the Prometheus JMX exporter runs.
type JMXMode string

// The JMX exporter modes.
const (
	// JMXJavaAgent loads the exporter into the product's JVM as a Java
	// agent; the main container serves the metrics port.
	JMXJavaAgent JMXMode = "javaagent"
	// JMXContainer runs the exporter as its own container that reads the
	// product's JVM over remote JMX bound to the loopback interface.
	JMXContainer JMXMode = "container"
)

// Defaults of JMXOptions.
const (
	// JMXExporterName is the provider's name, and the name of its
	// container in JMXContainer mode.
	JMXExporterName = "jmx-exporter"
	// DefaultJMXMetricsPort is the port metrics are served on.
	DefaultJMXMetricsPort int32 = 9404
	// DefaultJMXRemotePort is the product JVM's remote JMX port in
	// JMXContainer mode.
	DefaultJMXRemotePort int32 = 9999
	// DefaultJMXConfigKey is the ConfigMap key of the exporter's rules.
	DefaultJMXConfigKey = "jmx-exporter.yaml"
	// DefaultJMXJarPath is where the exporter's jar lies in the image.
	DefaultJMXJarPath = "/opkit/jmx/jmx_prometheus.jar"
	// DefaultJavaOptionsEnv is the variable the JVM options are appended to.
	DefaultJavaOptionsEnv = "JAVA_TOOL_OPTIONS"
	// JMXConfigMountPath is where the exporter's rules are mounted.
	JMXConfigMountPath = "/opkit/jmx-config"
	// JMXMetricsPortName is the name of the metrics container port.
	JMXMetricsPortName = "metrics"
)

// JMXOptions configures the JMX exporter. The zero value is a Java agent
// serving port 9404 with the rules under key jmx-exporter.yaml of the role
// group's ConfigMap.
type JMXOptions struct {
	// Mode is how the exporter runs; empty means JMXJavaAgent.
	Mode JMXMode
	// MetricsPort is the metrics port; zero means DefaultJMXMetricsPort.
	MetricsPort int32
	// ConfigMapName is the ConfigMap holding the rules; empty means the
	// role group's own ConfigMap.
	ConfigMapName string
	// ConfigMapField is the absolute path of the cluster resource field
	// that named ConfigMapName, such as
	// "spec.roles.broker.config.jmxRulesConfigMap"; empty when the operator
	// or the framework chose it. It decides how a missing ConfigMap is
	// reported (see Requirement.Check).
	ConfigMapField string
	// ConfigKey is the rules' key in the ConfigMap; empty means
	// DefaultJMXConfigKey.
	ConfigKey string
	// JarPath is the exporter jar's path in the image that runs it; empty
	// means DefaultJMXJarPath.
	JarPath string
	// JavaOptionsEnv is the main container's variable that JVM options are
	// appended to; empty means DefaultJavaOptionsEnv.
	JavaOptionsEnv string

	// Image runs the exporter container in JMXContainer mode; empty means
	// the build's product image (PlanOptions.ProductImage).
	Image string
	// RemotePort is the JVM's remote JMX port in JMXContainer mode; zero
	// means DefaultJMXRemotePort.
	RemotePort int32
	// Resources bounds the exporter container in JMXContainer mode; empty
	// means a request and limit of 50m CPU and 128Mi memory.
	Resources corev1.ResourceRequirements
}

// JMXExporter is the built-in provider of Prometheus JMX metrics, in the
// default phase. It is immutable; build it with NewJMXExporter.
type JMXExporter struct {
	opts  JMXOptions
	image ProductImage
}

var _ ImageUser = &JMXExporter{}

// NewJMXExporter returns the provider for opts with defaults filled in. An
// unknown mode or a port outside 1–65535 is a *failure.InvalidError blamed
// on the operator, naming the option.
func NewJMXExporter(opts JMXOptions) (*JMXExporter, error) {
	opts.Mode = cmp.Or(opts.Mode, JMXJavaAgent)
	opts.MetricsPort = cmp.Or(opts.MetricsPort, DefaultJMXMetricsPort)
	opts.RemotePort = cmp.Or(opts.RemotePort, DefaultJMXRemotePort)
	opts.ConfigKey = cmp.Or(opts.ConfigKey, DefaultJMXConfigKey)
	opts.JarPath = cmp.Or(opts.JarPath, DefaultJMXJarPath)
	opts.JavaOptionsEnv = cmp.Or(opts.JavaOptionsEnv, DefaultJavaOptionsEnv)
	var errs []error
	if opts.Mode != JMXJavaAgent && opts.Mode != JMXContainer {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "JMXOptions.Mode", "%q is not %q or %q", opts.Mode, JMXJavaAgent, JMXContainer))
	}
	for _, p := range []struct {
		name string
		port int32
	}{{"JMXOptions.MetricsPort", opts.MetricsPort}, {"JMXOptions.RemotePort", opts.RemotePort}} {
		if p.port < 1 || p.port > 65535 {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, p.name, "%d is not in 1-65535", p.port))
		}
	}
	if len(opts.Resources.Requests) == 0 && len(opts.Resources.Limits) == 0 {
		q := corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(50, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(128<<20, resource.BinarySI),
		}
		opts.Resources = corev1.ResourceRequirements{Requests: q, Limits: q.DeepCopy()}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &JMXExporter{opts: opts}, nil
}

// Name returns JMXExporterName.
func (j *JMXExporter) Name() string { return JMXExporterName }

// Phase returns PhaseDefault.
func (j *JMXExporter) Phase() Phase { return PhaseDefault }

// WithProductImage returns a copy that runs image when Options.Image is
// empty.
func (j *JMXExporter) WithProductImage(image ProductImage) Provider {
	c := *j
	c.image = image
	return &c
}

// Requirements declares the rules' ConfigMap and key.
func (j *JMXExporter) Requirements(t builders.PodTarget) []Requirement {
	r := Requirement{Kind: KindConfigMap, Namespace: t.Scope.Namespace, Name: j.configMap(t),
		Keys: []string{j.opts.ConfigKey}, NamedBy: failure.AuthorOperator}
	if j.opts.ConfigMapField != "" {
		r.Field, r.NamedBy = j.opts.ConfigMapField, failure.AuthorUser
	}
	return []Requirement{r}
}

func (j *JMXExporter) configMap(t builders.PodTarget) string {
	return cmp.Or(j.opts.ConfigMapName, t.Scope.ResourceName())
}

// Inject mounts the rules and, by mode, loads the agent into the main
// container or adds the exporter container.
func (j *JMXExporter) Inject(spec *corev1.PodSpec, t builders.PodTarget) error {
	main := Container(spec, t.MainContainer)
	if main == nil {
		return fmt.Errorf("main container %q is not in the pod", t.MainContainer)
	}
	const volume = JMXExporterName + "-config"
	if err := AddVolume(spec, corev1.Volume{Name: volume, VolumeSource: corev1.VolumeSource{
		ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: j.configMap(t)},
			Items:                []corev1.KeyToPath{{Key: j.opts.ConfigKey, Path: j.opts.ConfigKey}},
		}}}); err != nil {
		return err
	}
	mount := corev1.VolumeMount{Name: volume, MountPath: JMXConfigMountPath, ReadOnly: true}
	rules := path.Join(JMXConfigMountPath, j.opts.ConfigKey)
	port := corev1.ContainerPort{Name: JMXMetricsPortName, ContainerPort: j.opts.MetricsPort, Protocol: corev1.ProtocolTCP}
	if j.opts.Mode == JMXJavaAgent {
		if err := AddVolumeMount(main, mount); err != nil {
			return err
		}
		if err := AddPort(main, port); err != nil {
			return err
		}
		agent := fmt.Sprintf("-javaagent:%s=%d:%s", j.opts.JarPath, j.opts.MetricsPort, rules)
		return AppendEnvValue(main, j.opts.JavaOptionsEnv, agent)
	}
	return j.injectContainer(spec, main, mount, port, rules)
}

// injectContainer adds the standalone exporter container and opens the
// main JVM's remote JMX port on the loopback interface only: containers of
// a pod share it, nothing outside the pod can reach it, so it runs without
// authentication.
func (j *JMXExporter) injectContainer(spec *corev1.PodSpec, main *corev1.Container, mount corev1.VolumeMount, port corev1.ContainerPort, rules string) error {
	image, policy := j.opts.Image, corev1.PullPolicy("")
	if image == "" {
		image, policy = j.image.Reference, j.image.PullPolicy
	}
	if image == "" {
		return fmt.Errorf("no image for the %s container: set JMXOptions.Image or the product image", JMXExporterName)
	}
	remote := strconv.Itoa(int(j.opts.RemotePort))
	jvm := "-Dcom.sun.management.jmxremote.port=" + remote +
		" -Dcom.sun.management.jmxremote.rmi.port=" + remote +
		" -Dcom.sun.management.jmxremote.host=127.0.0.1" +
		" -Djava.rmi.server.hostname=127.0.0.1" +
		" -Dcom.sun.management.jmxremote.authenticate=false" +
		" -Dcom.sun.management.jmxremote.ssl=false"
	if err := AppendEnvValue(main, j.opts.JavaOptionsEnv, jvm); err != nil {
		return err
	}
	const tmp = JMXExporterName + "-tmp"
	if err := AddVolume(spec, corev1.Volume{Name: tmp, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}); err != nil {
		return err
	}
	c := corev1.Container{
		Name:            JMXExporterName,
		Image:           image,
		ImagePullPolicy: cmp.Or(policy, corev1.PullIfNotPresent),
		Command:         []string{"java", "-jar", j.opts.JarPath, strconv.Itoa(int(port.ContainerPort)), rules},
		Ports:           []corev1.ContainerPort{port},
		Resources:       *j.opts.Resources.DeepCopy(),
		VolumeMounts: []corev1.VolumeMount{
			mount,
			// Java writes temporary files; the root file system is read-only.
			{Name: tmp, MountPath: "/tmp"},
		},
	}
	builders.HardenContainer(&c, builders.Hardening{ReadOnlyRootFilesystem: true})
	return AddContainer(spec, c)
}
