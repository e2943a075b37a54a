package builders

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// RenderConfigFile renders entries in the format the file name's extension
// selects: ".properties" (Java properties), ".xml" (Hadoop configuration
// XML), ".yaml" or ".yml", ".env" and ".ini" or ".cfg". Keys are sorted, so
// the output is stable. An unknown extension, or an entry the format cannot
// hold, is a *ValidationError naming the file.
func RenderConfigFile(name string, entries map[string]string) (string, error) {
	var (
		out string
		err error
	)
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".properties":
		out = RenderProperties(entries)
	case ".xml":
		out = RenderHadoopXML(entries)
	case ".yaml", ".yml":
		out, err = RenderYAML(entries)
	case ".env":
		out, err = RenderEnvFile(entries)
	case ".ini", ".cfg":
		out, err = RenderINI(entries)
	default:
		return "", validationErrorf("configOverrides["+name+"]", "no renderer for files ending in %q", ext)
	}
	if err != nil {
		return "", &ValidationError{Field: "configOverrides[" + name + "]", Message: "cannot be rendered", Err: err}
	}
	return out, nil
}

// RenderProperties renders entries as a Java properties file, one
// "key=value" line per entry. Everything the format treats specially is
// escaped as java.util.Properties.store does: backslash, "=", ":", "#",
// "!", whitespace in keys and leading whitespace in values, line breaks,
// and every character outside printable ASCII as \uXXXX (UTF-16).
func RenderProperties(entries map[string]string) string {
	var b strings.Builder
	for _, k := range sortedKeys(entries) {
		b.WriteString(escapeProperty(k, true))
		b.WriteByte('=')
		b.WriteString(escapeProperty(entries[k], false))
		b.WriteByte('\n')
	}
	return b.String()
}

func escapeProperty(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '=', ':', '#', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case ' ':
			if key || i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(' ')
		default:
			if r < 0x20 || r > 0x7e {
				writeUnicodeEscape(&b, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// writeUnicodeEscape writes r as one \uXXXX escape, or two (a surrogate
// pair) outside the Basic Multilingual Plane.
func writeUnicodeEscape(b *strings.Builder, r rune) {
	if r > 0xffff {
		r -= 0x10000
		fmt.Fprintf(b, `\u%04X\u%04X`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		return
	}
	fmt.Fprintf(b, `\u%04X`, r)
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
