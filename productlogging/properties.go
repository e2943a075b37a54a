package productlogging

import (
	"fmt"
	"strings"
)

// propertiesWriter writes a Java properties file line by line, escaping
// keys and values so that java.util.Properties reads back exactly what was
// written.
type propertiesWriter struct {
	b strings.Builder
}

func (w *propertiesWriter) comment(text string) {
	w.b.WriteString("# " + text + "\n")
}

func (w *propertiesWriter) set(key, value string) {
	w.b.WriteString(escapeProperty(key, true))
	w.b.WriteString("=")
	w.b.WriteString(escapeProperty(value, false))
	w.b.WriteString("\n")
}

func (w *propertiesWriter) String() string { return w.b.String() }

// escapeProperty escapes s as a properties key (every separator and comment
// character, and all whitespace) or value (leading whitespace, backslashes
// and line breaks). Non-ASCII characters become \uXXXX escapes, as
// properties files are read as ISO-8859-1.
func escapeProperty(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == ' ' && (key || i == 0):
			b.WriteString(`\ `)
		case key && strings.ContainsRune("=:#!", r):
			b.WriteRune('\\')
			b.WriteRune(r)
		case !key && i == 0 && (r == '#' || r == '!'):
			b.WriteRune('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			writeUnicodeEscape(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func writeUnicodeEscape(b *strings.Builder, r rune) {
	if r > 0xFFFF {
		// Outside the basic plane: a UTF-16 surrogate pair.
		r -= 0x10000
		fmt.Fprintf(b, `\u%04X\u%04X`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		return
	}
	fmt.Fprintf(b, `\u%04X`, r)
}
