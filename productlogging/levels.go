package productlogging

import (
	"cmp"
	"slices"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// DefaultLevel is the level of the root logger and of both appenders when
// the spec states none.
const DefaultLevel = v1alpha1.LogLevelInfo

// levels is a container's resolved levels.
type levels struct {
	root    v1alpha1.LogLevel
	console v1alpha1.LogLevel
	file    v1alpha1.LogLevel
	loggers []namedLevel // sorted by name, root excluded
}

type namedLevel struct {
	name  string
	level v1alpha1.LogLevel
}

func resolveLevels(spec *v1alpha1.ContainerLoggingSpec) levels {
	l := levels{root: DefaultLevel, console: DefaultLevel, file: DefaultLevel}
	if spec == nil {
		return l
	}
	if lv := levelOf(spec.Console); lv != "" {
		l.console = lv
	}
	if lv := levelOf(spec.File); lv != "" {
		l.file = lv
	}
	for name, s := range spec.Loggers {
		lv := levelOf(&s)
		if lv == "" {
			continue
		}
		if name == v1alpha1.RootLogger {
			l.root = lv
			continue
		}
		l.loggers = append(l.loggers, namedLevel{name: name, level: lv})
	}
	slices.SortFunc(l.loggers, func(a, b namedLevel) int { return cmp.Compare(a.name, b.name) })
	return l
}

func levelOf(s *v1alpha1.LogLevelSpec) v1alpha1.LogLevel {
	if s == nil || s.Level == nil {
		return ""
	}
	return *s.Level
}

// javaLevel names a level for Log4j, Log4j2 and Logback. Logback has no
// FATAL; ERROR is the closest.
func javaLevel(f Framework, l v1alpha1.LogLevel) string {
	switch l {
	case v1alpha1.LogLevelNone:
		return "OFF"
	case v1alpha1.LogLevelFatal:
		if f == Logback {
			return "ERROR"
		}
	}
	return string(l)
}

// pythonLevel names a level for Python's logging module, which has no TRACE
// (DEBUG is the closest), says WARNING and CRITICAL, and has no "off":
// a level above CRITICAL silences everything.
func pythonLevel(l v1alpha1.LogLevel) any {
	switch l {
	case v1alpha1.LogLevelTrace, v1alpha1.LogLevelDebug:
		return "DEBUG"
	case v1alpha1.LogLevelWarn:
		return "WARNING"
	case v1alpha1.LogLevelFatal:
		return "CRITICAL"
	case v1alpha1.LogLevelNone:
		return 100
	default:
		return string(l)
	}
}
