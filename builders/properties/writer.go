package properties

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Writer writes a Java properties file line by line, in the order of the
// calls. Its zero value is ready to use.
//
// What is escaped follows the format's grammar (java.util.Properties.load)
// rather than the blanket escaping of Properties.store, so values stay
// readable and a reader that only splits at the first "=" gets them right
// too:
//
//   - keys: backslash, every separator ("=", ":" and whitespace) and the
//     comment characters "#" and "!", which would otherwise end the key or
//     turn the line into a comment;
//   - values: backslash, line breaks and other control characters, and a
//     leading space, which the reader would skip. "=", ":", "#" and "!"
//     stay literal: after the first separator they carry no meaning;
//   - both: every character outside printable ASCII as \uXXXX (a UTF-16
//     surrogate pair beyond the Basic Multilingual Plane), because a
//     properties stream is read as ISO-8859-1.
type Writer struct {
	b strings.Builder
}

// Comment writes text as comment lines, each starting with "# ".
func (w *Writer) Comment(text string) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	for line := range strings.SplitSeq(text, "\n") {
		w.b.WriteString("# ")
		for _, r := range line {
			if r != '\t' && (r < 0x20 || r > 0x7e) {
				writeUnicodeEscape(&w.b, r)
			} else {
				w.b.WriteRune(r)
			}
		}
		w.b.WriteByte('\n')
	}
}

// Set writes one "key=value" line.
func (w *Writer) Set(key, value string) {
	writeEscaped(&w.b, key, true)
	w.b.WriteByte('=')
	writeEscaped(&w.b, value, false)
	w.b.WriteByte('\n')
}

// String returns what has been written.
func (w *Writer) String() string { return w.b.String() }

// Render renders entries as a properties file, one "key=value" line per
// entry, keys sorted, escaped as Writer does.
func Render(entries map[string]string) string {
	var w Writer
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		w.Set(k, entries[k])
	}
	return w.String()
}

func writeEscaped(b *strings.Builder, s string, key bool) {
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == ' ':
			if key || i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(' ')
		case key && (r == '=' || r == ':' || r == '#' || r == '!'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			writeUnicodeEscape(b, r)
		default:
			b.WriteRune(r)
		}
	}
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
