package configfold

import "github.com/opkit-dev/opkit/api/commons/v1alpha1"

// foldLogging folds logging per container. enableVectorAgent folds on
// presence. Containers are the union over the layers; within a container the
// console and file levels are replaced only by a layer that states a level,
// and loggers are the union, each logger's level replaced only where a layer
// states one. The result is nil when no layer states logging.
func foldLogging(layers []layer[v1alpha1.RoleGroupConfigSpec]) *v1alpha1.LoggingSpec {
	var out *v1alpha1.LoggingSpec
	for _, l := range layers {
		if l.spec == nil || l.spec.Logging == nil {
			continue
		}
		if out == nil {
			out = &v1alpha1.LoggingSpec{}
		}
		in := l.spec.Logging
		if in.EnableVectorAgent != nil {
			out.EnableVectorAgent = new(*in.EnableVectorAgent)
		}
		// Map order does not matter: each key folds independently.
		for name, c := range in.Containers {
			if out.Containers == nil {
				out.Containers = make(map[string]v1alpha1.ContainerLoggingSpec, len(in.Containers))
			}
			out.Containers[name] = foldContainerLogging(out.Containers[name], c)
		}
	}
	return out
}

func foldContainerLogging(base, next v1alpha1.ContainerLoggingSpec) v1alpha1.ContainerLoggingSpec {
	base.Console = foldLevelPointer(base.Console, next.Console)
	base.File = foldLevelPointer(base.File, next.File)
	for name, level := range next.Loggers {
		if base.Loggers == nil {
			base.Loggers = make(map[string]v1alpha1.LogLevelSpec, len(next.Loggers))
		}
		base.Loggers[name] = foldLevel(base.Loggers[name], level)
	}
	return base
}

// foldLevelPointer folds an optional level: present when either is, the
// level replaced only when next states one. base is already owned by the
// result; next belongs to an input and is copied.
func foldLevelPointer(base, next *v1alpha1.LogLevelSpec) *v1alpha1.LogLevelSpec {
	if next == nil {
		return base
	}
	var b v1alpha1.LogLevelSpec
	if base != nil {
		b = *base
	}
	folded := foldLevel(b, *next)
	return &folded
}

func foldLevel(base, next v1alpha1.LogLevelSpec) v1alpha1.LogLevelSpec {
	if next.Level != nil {
		base.Level = new(*next.Level)
	}
	return base
}
