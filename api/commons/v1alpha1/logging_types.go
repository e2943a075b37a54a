package v1alpha1

// LogLevel is a log level, ordered from most to least verbose.
// +kubebuilder:validation:Enum=TRACE;DEBUG;INFO;WARN;ERROR;FATAL;NONE
type LogLevel string

// Log levels.
const (
	LogLevelTrace LogLevel = "TRACE"
	LogLevelDebug LogLevel = "DEBUG"
	LogLevelInfo  LogLevel = "INFO"
	LogLevelWarn  LogLevel = "WARN"
	LogLevelError LogLevel = "ERROR"
	LogLevelFatal LogLevel = "FATAL"
	LogLevelNone  LogLevel = "NONE"
)

// LoggingSpec configures logging for a role group's containers.
type LoggingSpec struct {
	// EnableVectorAgent runs the Vector log agent beside the containers so
	// their log files reach the aggregator.
	// +optional
	EnableVectorAgent *bool `json:"enableVectorAgent,omitempty"`

	// Containers maps a container name to its logging configuration.
	// +optional
	Containers map[string]ContainerLoggingSpec `json:"containers,omitempty"`
}

// ContainerLoggingSpec configures one container's logging.
type ContainerLoggingSpec struct {
	// Console sets the level of the console appender.
	// +optional
	Console *LogLevelSpec `json:"console,omitempty"`
	// File sets the level of the file appender.
	// +optional
	File *LogLevelSpec `json:"file,omitempty"`
	// Loggers maps a logger name to its level; "ROOT" names the root logger.
	// +optional
	Loggers map[string]LogLevelSpec `json:"loggers,omitempty"`
}

// LogLevelSpec holds one level.
type LogLevelSpec struct {
	// Level is the level; unset inherits.
	// +optional
	Level *LogLevel `json:"level,omitempty"`
}

// RootLogger is the logger name that addresses the root logger.
const RootLogger = "ROOT"
