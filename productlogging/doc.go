// Package productlogging renders the logging configuration files of the
// logging frameworks products are built on: Log4j 1.x (properties), Log4j2
// (properties or XML), Logback (XML) and Python's logging.config.dictConfig
// (YAML).
//
// A Producer describes one container that writes logs: its framework, the
// name of its config file, and where its log file goes. Render turns the
// container's folded logging spec into the config file's text:
//
//	p := productlogging.Producer{Container: "trino", Framework: productlogging.Logback}
//	text, err := productlogging.Render(p, spec, productlogging.Options{CollectFiles: agentInjected})
//	configMap.Data[p.ConfigFileName()] = text
//
// Every rendering has a console appender. A rolling, size-bounded file
// appender with a layout a log agent parses is added only when
// Options.CollectFiles says a log agent collects the files: without the
// agent nothing mounts the log directory, and a file appender would write
// into a path no volume backs. Output is deterministic: loggers are sorted.
//
// Properties files are written with the Writer of package
// github.com/opkit-dev/opkit/builders/properties, the one properties
// encoder of opkit.
//
// ValidateProducers rejects producer sets in which two producers write the
// same file or configure the same container; each problem is a
// *ProducerError of class failure.ErrInvalid, blamed on the operator.
package productlogging
