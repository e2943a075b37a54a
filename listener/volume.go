package listener

import (
	"errors"
	"path"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/opkit-dev/opkit/api/failure"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
)

// DefaultMountRoot is the directory listener volumes are mounted under,
// one subdirectory per volume, unless Options names another.
const DefaultMountRoot = "/opkit/listener"

// Files the listener operator writes into a mounted listener volume,
// relative to its mount path (see Set.File).
const (
	// AddressFile holds the address clients reach the pod at.
	AddressFile = "default-address/address"
	// PortsDir holds one file per port name with the port clients use.
	PortsDir = "default-address/ports"
)

// volumeSize is the storage request of a listener volume's claim: the API
// server requires one.
var volumeSize = resource.MustParse("1")

// Options configures a Set. The zero value asks the opkit listener
// operator (listenerv1alpha1.Driver) and mounts under DefaultMountRoot.
type Options struct {
	// Driver is the listener operator's CSI driver: the storage class of
	// the volumes and the domain of their annotations. Empty means
	// listenerv1alpha1.Driver.
	Driver string
	// MountRoot is the directory the volumes are mounted under. Empty
	// means DefaultMountRoot.
	MountRoot string
}

// Volume is one listener volume of a pod: a listener of Class made for the
// pod, or the existing listener Listener, exactly one of the two.
type Volume struct {
	// Name is the volume's name, a DNS label.
	Name string
	// Class asks for a listener of this class.
	Class listenerv1alpha1.Class
	// Listener binds to an existing listener of this name.
	Listener string
	// Containers mount the volume; none means the main container.
	Containers []string
	// Field is where Class was written (such as
	// "spec.roles.broker.config.listenerClass"), for errors blamed on the
	// user; empty blames the operator.
	Field string
}

// Set is the listener volumes of one pod. It implements
// builders.PodInjector; results share no memory with its inputs.
type Set struct {
	opts    Options
	volumes []Volume
}

var _ builders.PodInjector = (*Set)(nil)

// NewSet returns an empty Set.
func NewSet(opts Options) *Set { return &Set{opts: opts} }

// Add adds volumes, in order.
func (s *Set) Add(vs ...Volume) *Set {
	for _, v := range vs {
		v.Containers = slices.Clone(v.Containers)
		s.volumes = append(s.volumes, v)
	}
	return s
}

// MountPath returns where the volume name is mounted: "<MountRoot>/<name>".
func (s *Set) MountPath(name string) string {
	root := DefaultMountRoot
	if s.opts.MountRoot != "" {
		root = strings.TrimSuffix(s.opts.MountRoot, "/")
	}
	return path.Join(root, name)
}

// File returns the path of file (such as AddressFile) in the volume name.
func (s *Set) File(name, file string) string { return path.Join(s.MountPath(name), file) }

// Validate reports every volume that cannot be built, joined.
func (s *Set) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for _, v := range s.volumes {
		if msgs := validation.IsDNS1123Label(v.Name); len(msgs) > 0 {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "listener["+v.Name+"]", "%q is not a volume name: %s", v.Name, strings.Join(msgs, "; ")))
		}
		if seen[v.Name] {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "listener["+v.Name+"]", "volume %q is requested twice", v.Name))
		}
		seen[v.Name] = true
		switch {
		case (v.Class == "") == (v.Listener == ""):
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "listener["+v.Name+"]", "set exactly one of Class and Listener"))
		case v.Class != "" && !v.Class.Known():
			author, field := failure.AuthorOperator, "listener["+v.Name+"].class"
			if v.Field != "" {
				author, field = failure.AuthorUser, v.Field
			}
			errs = append(errs, failure.Invalid(author, field, "unknown listener class %q (classes: %s)", v.Class, classList()))
		case v.Listener != "" && len(validation.IsDNS1123Subdomain(v.Listener)) > 0:
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "listener["+v.Name+"].listener", "%q is not a listener name", v.Listener))
		}
	}
	return errors.Join(errs...)
}

// Volumes returns the pod volumes, in the order they were added.
func (s *Set) Volumes() ([]corev1.Volume, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	driver := s.opts.Driver
	if driver == "" {
		driver = listenerv1alpha1.Driver
	}
	out := make([]corev1.Volume, 0, len(s.volumes))
	for _, v := range s.volumes {
		key, value := listenerv1alpha1.AnnotationClass, string(v.Class)
		if v.Listener != "" {
			key, value = listenerv1alpha1.AnnotationName, v.Listener
		}
		key = driver + strings.TrimPrefix(key, listenerv1alpha1.Driver)
		out = append(out, corev1.Volume{Name: v.Name, VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
			VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{key: value}},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany},
					StorageClassName: &driver,
					Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: volumeSize.DeepCopy()}},
				},
			},
		}}})
	}
	return out, nil
}

// Inject adds the volumes to spec and mounts each, read-only, in the
// containers it names (the target's main container when it names none).
// It changes nothing when it fails.
func (s *Set) Inject(spec *corev1.PodSpec, target builders.PodTarget) error {
	vols, err := s.Volumes()
	if err != nil {
		return err
	}
	work := spec.DeepCopy()
	var errs []error
	for _, v := range vols {
		if slices.ContainsFunc(work.Volumes, func(o corev1.Volume) bool { return o.Name == v.Name }) {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "listener["+v.Name+"]", "the pod already has a volume %q", v.Name))
		}
	}
	work.Volumes = append(work.Volumes, vols...)
	for _, v := range s.volumes {
		names := v.Containers
		if len(names) == 0 {
			names = []string{target.MainContainer}
		}
		for _, name := range names {
			c := findContainer(work, name)
			if c == nil {
				errs = append(errs, failure.Invalid(failure.AuthorOperator, "listener["+v.Name+"]", "container %q, which mounts volume %q, is not in the pod", name, v.Name))
				continue
			}
			c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: v.Name, MountPath: s.MountPath(v.Name), ReadOnly: true})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	*spec = *work
	return nil
}

func findContainer(spec *corev1.PodSpec, name string) *corev1.Container {
	for _, list := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

func classList() string {
	var names []string
	for _, c := range listenerv1alpha1.Classes() {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}
