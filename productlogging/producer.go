package productlogging

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Framework is a logging framework a container is configured through.
type Framework string

// The supported frameworks.
const (
	// Log4j is Log4j 1.x, configured by a properties file.
	Log4j Framework = "log4j"
	// Log4j2 is Log4j 2, configured by a properties file or, when the config
	// file name ends in .xml, an XML file.
	Log4j2 Framework = "log4j2"
	// Logback is Logback, configured by an XML file.
	Logback Framework = "logback"
	// Python is Python's logging module, configured by a YAML document for
	// logging.config.dictConfig.
	Python Framework = "python"
)

// Frameworks returns the supported frameworks, sorted.
func Frameworks() []Framework { return []Framework{Log4j, Log4j2, Logback, Python} }

// DefaultLogDirRoot is the directory under which a producer's log directory
// lies when it names none: <DefaultLogDirRoot>/<container>.
const DefaultLogDirRoot = "/opkit/log"

// Producer is one container that writes logs through a framework.
type Producer struct {
	// Container is the container's name. Required.
	Container string
	// Framework is the container's logging framework. Required.
	Framework Framework
	// ConfigFile is the name of the logging config file. Empty means the
	// framework's usual name: log4j.properties, log4j2.properties,
	// logback.xml or logging.yaml.
	ConfigFile string
	// LogFile is the name of the log file. Empty means
	// <container>.<framework>.xml for the Java frameworks (their file layout
	// is XML events) and <container>.python.log for Python.
	LogFile string
	// LogDir is the absolute directory of the log file. Empty means
	// <DefaultLogDirRoot>/<container>.
	LogDir string
}

// ConfigFileName returns the config file's name, defaulted.
func (p Producer) ConfigFileName() string {
	if p.ConfigFile != "" {
		return p.ConfigFile
	}
	switch p.Framework {
	case Log4j:
		return "log4j.properties"
	case Log4j2:
		return "log4j2.properties"
	case Logback:
		return "logback.xml"
	default:
		return "logging.yaml"
	}
}

// LogFileName returns the log file's name, defaulted.
func (p Producer) LogFileName() string {
	if p.LogFile != "" {
		return p.LogFile
	}
	if p.Framework == Python {
		return p.Container + ".python.log"
	}
	return p.Container + "." + string(p.Framework) + ".xml"
}

// LogDirectory returns the log directory, defaulted.
func (p Producer) LogDirectory() string {
	if p.LogDir != "" {
		return p.LogDir
	}
	return path.Join(DefaultLogDirRoot, p.Container)
}

// LogFilePath returns the absolute path of the log file.
func (p Producer) LogFilePath() string {
	return path.Join(p.LogDirectory(), p.LogFileName())
}

// Validate checks one producer alone; fields are named relative to it
// ("container", "logDir").
func (p Producer) Validate() error {
	return errors.Join(p.validate("")...)
}

// validate returns p's problems, each a *ProducerError whose field starts
// with prefix, sorted by field.
func (p Producer) validate(prefix string) []error {
	var errs []*ProducerError
	add := func(field, format string, args ...any) {
		errs = append(errs, &ProducerError{Field: prefix + field, Message: fmt.Sprintf(format, args...)})
	}
	if p.Container == "" {
		add("container", "must be set")
	}
	if !slices.Contains(Frameworks(), p.Framework) {
		add("framework", "%q is not one of %v", p.Framework, Frameworks())
	}
	if p.LogDir != "" && !path.IsAbs(p.LogDir) {
		add("logDir", "%q must be an absolute path", p.LogDir)
	}
	if strings.Contains(p.ConfigFile, "/") {
		add("configFile", "%q must be a file name, not a path", p.ConfigFile)
	}
	if strings.Contains(p.LogFile, "/") {
		add("logFile", "%q must be a file name, not a path", p.LogFile)
	}
	slices.SortFunc(errs, func(a, b *ProducerError) int { return cmp.Compare(a.Field, b.Field) })
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return out
}

// ValidateProducers checks every producer and rejects two producers that
// configure the same container or write the same log file, naming both.
// Every problem is a *ProducerError whose field is the producer's index in
// the list, e.g. "logProducers[1].logFile".
func ValidateProducers(producers []Producer) error {
	var errs []error
	containers := map[string]int{}
	files := map[string]int{}
	for i, p := range producers {
		prefix := fmt.Sprintf("logProducers[%d].", i)
		if perrs := p.validate(prefix); len(perrs) > 0 {
			errs = append(errs, perrs...)
			continue
		}
		if j, dup := containers[p.Container]; dup {
			errs = append(errs, &ProducerError{
				Field:   prefix + "container",
				Message: fmt.Sprintf("container %q is already configured by logProducers[%d]", p.Container, j),
			})
		} else {
			containers[p.Container] = i
		}
		if j, dup := files[p.LogFilePath()]; dup {
			errs = append(errs, &ProducerError{
				Field: prefix + "logFile",
				Message: fmt.Sprintf("container %q would write %s, which logProducers[%d] (container %q) already writes",
					p.Container, p.LogFilePath(), j, producers[j].Container),
			})
		} else {
			files[p.LogFilePath()] = i
		}
	}
	return errors.Join(errs...)
}
