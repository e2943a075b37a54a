package configfold

import (
	"errors"
	"fmt"
	"time"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// Common is the folded common block of one role group.
type Common struct {
	// Config is the folded block. Its affinity is in canonical form (see
	// NormalizeAffinity).
	Config *v1alpha1.RoleGroupConfigSpec
	// Affinity is Config.Affinity decoded: what goes on the pod template.
	// Nil when no layer states one or the last one stated clears it.
	Affinity *corev1.Affinity
	// AffinityOverride says which affinity members declared beneath the
	// winning layer are missing from Affinity. Nil when none is: nothing
	// was declared beneath, every member was restated, or the affinity was
	// cleared on purpose.
	AffinityOverride *AffinityOverride
}

// FoldCommon folds the common role-group config over its layers: the
// operator's declared defaults, the role's config and the role group's
// config, a later layer winning. Any layer may be nil; in.RoleName (and
// in.RoleGroupName when the RoleGroup layer is set) must name the role
// group, so every path it reports is absolute.
//
// Field by field:
//   - resources fold per leaf (cpu.min, cpu.max, memory.limit,
//     storage.capacity, storage.storageClass): a default cpu.min survives a
//     layer that states only cpu.max;
//   - affinity is replaced wholesale by a layer that states one, as
//     Kubernetes does for a pod's affinity; {} (or a value whose members
//     are all empty) clears it. Common.AffinityOverride lists what lower
//     layers declared that the result lacks (see AffinityOverride);
//   - logging folds per container: a level is replaced only where a later
//     layer states it, loggers are the union, enableVectorAgent folds on
//     presence;
//   - gracefulShutdownTimeout is atomic: the last layer stating it wins.
//
// Every stated affinity is decoded strictly and every stated
// gracefulShutdownTimeout must be a positive Go duration, in every layer,
// even one a later layer overrides: a mistake should not surface only when
// the value hiding it is removed. Each problem is a *FieldError naming its
// layer and absolute path (joined with errors.Join); missing names are a
// *failure.InvalidError blamed on the operator. On error Common is the zero
// value.
//
// The result shares no memory with the inputs.
func FoldCommon(in Layers[v1alpha1.RoleGroupConfigSpec]) (Common, error) {
	if err := in.checkNames(); err != nil {
		return Common{}, err
	}
	layers := in.ordered()
	var errs []error
	out := &v1alpha1.RoleGroupConfigSpec{}
	for _, l := range layers {
		if l.spec == nil {
			continue
		}
		if err := checkGracefulShutdownTimeout(l.spec.GracefulShutdownTimeout); err != nil {
			errs = append(errs, place(err, l.at, "config.gracefulShutdownTimeout"))
		}
		if l.spec.GracefulShutdownTimeout != nil {
			out.GracefulShutdownTimeout = new(*l.spec.GracefulShutdownTimeout)
		}
	}
	affinity, override, err := foldAffinity(layers)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return Common{}, err
	}
	out.Affinity, err = EncodeAffinity(affinity)
	if err != nil {
		return Common{}, err
	}
	out.Resources = foldResources(layers)
	out.Logging = foldLogging(layers)
	return Common{Config: out, Affinity: affinity, AffinityOverride: override}, nil
}

func checkGracefulShutdownTimeout(s *string) error {
	if s == nil {
		return nil
	}
	d, err := time.ParseDuration(*s)
	if err != nil {
		return fmt.Errorf("%w: %q is not a Go duration such as \"30s\" or \"2m\"", ErrInvalidValue, *s)
	}
	if d <= 0 {
		return fmt.Errorf("%w: %q must be positive", ErrInvalidValue, *s)
	}
	return nil
}
