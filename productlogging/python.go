package productlogging

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// renderPython renders a YAML document for logging.config.dictConfig.
// Logger names are map keys, quoted by the YAML encoder as needed.
func renderPython(p Producer, lv levels, opts Options) (string, error) {
	formatters := map[string]any{
		"console": map[string]any{"format": pythonConsolePattern},
	}
	handlers := map[string]any{
		"console": map[string]any{
			"class":     "logging.StreamHandler",
			"stream":    "ext://sys.stdout",
			"formatter": "console",
			"level":     pythonLevel(lv.console),
		},
	}
	rootHandlers := []string{"console"}
	if opts.CollectFiles {
		formatters["file"] = map[string]any{"format": PythonFileFormat, "datefmt": PythonFileDateFormat}
		handlers["file"] = map[string]any{
			"class":       "logging.handlers.RotatingFileHandler",
			"filename":    p.LogFilePath(),
			"maxBytes":    opts.maxFileSize(),
			"backupCount": 1,
			"formatter":   "file",
			"level":       pythonLevel(lv.file),
		}
		rootHandlers = append(rootHandlers, "file")
	}
	loggers := map[string]any{}
	for _, l := range lv.loggers {
		loggers[l.name] = map[string]any{"level": pythonLevel(l.level)}
	}
	doc := map[string]any{
		"version":                  1,
		"disable_existing_loggers": false,
		"formatters":               formatters,
		"handlers":                 handlers,
		"root":                     map[string]any{"level": pythonLevel(lv.root), "handlers": rootHandlers},
	}
	if len(loggers) > 0 {
		doc["loggers"] = loggers
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("rendering Python logging config: %w", err)
	}
	return "# Python logging configuration; generated, do not edit.\n" + string(out), nil
}
