// Package productlogging is the opkit module that owns logging configuration
// files for the logging frameworks products use (Log4j, Log4j2, Logback,
// Python): console and file appenders, per-logger levels, log directory
// conventions and validation of log producers.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package productlogging
