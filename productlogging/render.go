package productlogging

import (
	"fmt"
	"strings"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// DefaultMaxFileSize is the size at which a log file rolls over when
// Options.MaxFileSizeBytes is zero: 10 MiB. One rolled file is kept, so a
// container's logs take at most twice this on the log volume.
const DefaultMaxFileSize = 10 << 20

// Options tunes a rendering. The zero value renders a console-only
// configuration.
type Options struct {
	// CollectFiles adds a rolling file appender writing the producer's log
	// file in a layout the log agent parses. Set it exactly when a log agent
	// is injected beside the container (the vector module's gating answer):
	// only then is the log directory backed by a volume.
	CollectFiles bool

	// MaxFileSizeBytes bounds one log file before it rolls over. Zero means
	// DefaultMaxFileSize.
	MaxFileSizeBytes int64
}

func (o Options) maxFileSize() int64 {
	if o.MaxFileSizeBytes > 0 {
		return o.MaxFileSizeBytes
	}
	return DefaultMaxFileSize
}

// Console line patterns, one per framework family.
const (
	javaConsolePattern    = "%d{ISO8601} %-5p [%t] %c: %m%n"
	logbackConsolePattern = "%d{ISO8601} %-5level [%thread] %logger: %msg%n"
	pythonConsolePattern  = "%(asctime)s %(levelname)-8s [%(name)s] %(message)s"
)

// PythonFileFormat is the line format of Python log files: an ISO 8601 time
// with milliseconds, the level, the logger in brackets, then the message,
// separated by single spaces. A log agent parses it with the matching
// pattern; multi-line messages continue on lines that do not start with a
// time.
const PythonFileFormat = "%(asctime)s.%(msecs)03d %(levelname)s [%(name)s] %(message)s"

// PythonFileDateFormat is the date format of PythonFileFormat's asctime.
const PythonFileDateFormat = "%Y-%m-%dT%H:%M:%S"

// Render returns the text of p's logging config file for the container's
// folded logging spec (nil means defaults: everything at INFO). It is
// deterministic: the same input gives the same bytes.
func Render(p Producer, spec *v1alpha1.ContainerLoggingSpec, opts Options) (string, error) {
	if err := p.Validate(); err != nil {
		return "", fmt.Errorf("logging producer for container %q: %w", p.Container, err)
	}
	lv := resolveLevels(spec)
	switch p.Framework {
	case Log4j:
		return renderLog4j(p, lv, opts), nil
	case Log4j2:
		if strings.HasSuffix(p.ConfigFileName(), ".xml") {
			return renderLog4j2XML(p, lv, opts)
		}
		return renderLog4j2Properties(p, lv, opts), nil
	case Logback:
		return renderLogback(p, lv, opts)
	default: // Python; Validate admits nothing else.
		return renderPython(p, lv, opts)
	}
}
