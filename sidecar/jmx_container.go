package sidecar

import (
	"cmp"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

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
	HardenContainer(&c)
	return AddContainer(spec, c)
}
