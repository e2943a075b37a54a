package builders

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders/properties"
)

// RenderError reports a config file, or one entry of it, that its format
// cannot hold. It is of class failure.ErrInvalid; it does not know whose
// entry it is, which the ConfigMap builder adds (see ConfigFile).
type RenderError struct {
	// File is the file's name; empty when a renderer was called directly.
	File string
	// Key is the offending entry's key; empty when the file itself is at
	// fault (an extension no renderer handles).
	Key string
	// Message says what is wrong.
	Message string
}

// Error returns "<file>: key <key>: <message>", leaving out what is empty.
func (e *RenderError) Error() string {
	var parts []string
	if e.File != "" {
		parts = append(parts, e.File)
	}
	if e.Key != "" {
		parts = append(parts, fmt.Sprintf("key %q", e.Key))
	}
	return strings.Join(append(parts, e.Message), ": ")
}

// Is reports the class failure.ErrInvalid.
func (e *RenderError) Is(target error) bool { return target == failure.ErrInvalid }

// RenderConfigFile renders entries in the format the file name's extension
// selects: ".properties" (Java properties, package properties), ".xml" (Hadoop configuration
// XML), ".yaml" or ".yml", ".env" and ".ini" or ".cfg". Keys are sorted, so
// the output is stable. An unknown extension, or entries the format cannot
// hold, are *RenderError values (all of them, joined, sorted by key).
func RenderConfigFile(name string, entries map[string]string) (string, error) {
	var (
		out  string
		errs []*RenderError
	)
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".properties":
		out = properties.Render(entries)
	case ".xml":
		out = RenderHadoopXML(entries)
	case ".yaml", ".yml":
		out, errs = renderYAML(entries)
	case ".env":
		out, errs = renderEnvFile(entries)
	case ".ini", ".cfg":
		out, errs = renderINI(entries)
	default:
		errs = []*RenderError{{Message: fmt.Sprintf("no renderer for files ending in %q", ext)}}
	}
	if len(errs) > 0 {
		for _, e := range errs {
			e.File = name
		}
		return "", joinRenderErrors(errs)
	}
	return out, nil
}

// joinRenderErrors joins errs sorted by key.
func joinRenderErrors(errs []*RenderError) error {
	slices.SortFunc(errs, func(a, b *RenderError) int { return cmp.Compare(a.Key, b.Key) })
	joined := make([]error, len(errs))
	for i, e := range errs {
		joined[i] = e
	}
	return errors.Join(joined...)
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
