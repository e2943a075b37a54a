package secretvolume

import (
	"errors"
	"path"
	"slices"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/builders"
)

// Set is the secret volumes of one pod. Add requests, then hand the Set to
// the StatefulSet builder as an injector (it implements
// builders.PodInjector) or take its Volumes and Mounts. A Set copies what
// it is given and every result is fresh, so results share no memory with
// the requests or with each other.
type Set struct {
	opts     Options
	requests []Request
}

var _ builders.PodInjector = (*Set)(nil)

// New returns an empty Set.
func New(opts Options) *Set { return &Set{opts: opts} }

// Add adds requests, in order. Problems are reported by Validate, Volumes
// and Inject, all of them at once.
func (s *Set) Add(reqs ...Request) *Set {
	for _, r := range reqs {
		r.Scope = r.Scope.DeepCopy()
		r.KerberosServiceNames = slices.Clone(r.KerberosServiceNames)
		r.Containers = slices.Clone(r.Containers)
		s.requests = append(s.requests, r)
	}
	return s
}

// Names returns the volume names, in the order they were added.
func (s *Set) Names() []string {
	out := make([]string, len(s.requests))
	for i, r := range s.requests {
		out[i] = r.Name
	}
	return out
}

// MountPath returns where the volume name is mounted:
// "<MountRoot>/<name>". It is the one place a secret's path is decided;
// name need not have been added yet.
func (s *Set) MountPath(name string) string { return path.Join(s.opts.mountRoot(), name) }

// File returns the path of file (such as KeystoreFile) in the volume name.
func (s *Set) File(name, file string) string { return path.Join(s.MountPath(name), file) }

// Validate reports every request that cannot be honoured, joined.
func (s *Set) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for _, r := range s.requests {
		errs = append(errs, validate(r)...)
		if seen[r.Name] {
			errs = append(errs, operatorError(r.Name, "", "volume %q is requested twice", r.Name))
		}
		seen[r.Name] = true
	}
	return errors.Join(errs...)
}

// Volumes returns the pod volumes, in the order the requests were added.
func (s *Set) Volumes() ([]corev1.Volume, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	out := make([]corev1.Volume, 0, len(s.requests))
	for _, r := range s.requests {
		out = append(out, s.volume(r))
	}
	return out, nil
}

// Mounts returns the read-only mounts of the container, which mounts the
// requests naming it, or naming none when main is true.
func (s *Set) Mounts(container string, main bool) []corev1.VolumeMount {
	var out []corev1.VolumeMount
	for _, r := range s.requests {
		if mountedIn(r, container, main) {
			out = append(out, corev1.VolumeMount{Name: r.Name, MountPath: s.MountPath(r.Name), ReadOnly: true})
		}
	}
	return out
}

// Inject adds the volumes to spec and mounts each, read-only, in the
// containers its request names (the target's main container when it names
// none). It changes nothing when it fails: on an invalid request, a
// container that is not in the pod, or a volume name or mount path the pod
// already uses.
func (s *Set) Inject(spec *corev1.PodSpec, target builders.PodTarget) error {
	vols, err := s.Volumes()
	if err != nil {
		return err
	}
	work := spec.DeepCopy()
	var errs []error
	for _, v := range vols {
		if slices.ContainsFunc(work.Volumes, func(o corev1.Volume) bool { return o.Name == v.Name }) {
			errs = append(errs, operatorError(v.Name, "", "the pod already has a volume %q", v.Name))
		}
	}
	work.Volumes = append(work.Volumes, vols...)
	for _, r := range s.requests {
		for _, name := range containersOf(r, target.MainContainer) {
			c := findContainer(work, name)
			if c == nil {
				errs = append(errs, operatorError(r.Name, "", "container %q, which mounts volume %q, is not in the pod", name, r.Name))
				continue
			}
			at := s.MountPath(r.Name)
			if slices.ContainsFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == at }) {
				errs = append(errs, operatorError(r.Name, "", "container %q already mounts something at %s", name, at))
				continue
			}
			c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: r.Name, MountPath: at, ReadOnly: true})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	*spec = *work
	return nil
}

func mountedIn(r Request, container string, main bool) bool {
	if len(r.Containers) == 0 {
		return main
	}
	return slices.Contains(r.Containers, container)
}

func containersOf(r Request, main string) []string {
	if len(r.Containers) == 0 {
		return []string{main}
	}
	return r.Containers
}

// findContainer returns the container or init container called name.
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
