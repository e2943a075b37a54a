package builders

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// RenderHadoopXML renders entries as a Hadoop configuration file: one
// <property> with <name> and <value> per entry inside <configuration>.
func RenderHadoopXML(entries map[string]string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n")
	for _, k := range sortedKeys(entries) {
		b.WriteString("  <property>\n    <name>")
		xmlEscape(&b, k)
		b.WriteString("</name>\n    <value>")
		xmlEscape(&b, entries[k])
		b.WriteString("</value>\n  </property>\n")
	}
	b.WriteString("</configuration>\n")
	return b.String()
}

func xmlEscape(b *strings.Builder, s string) {
	// EscapeText writes to a strings.Builder, which never fails.
	_ = xml.EscapeText(b, []byte(s))
}

// RenderYAML renders entries as a flat YAML mapping of strings.
func RenderYAML(entries map[string]string) (string, error) {
	out, errs := renderYAML(entries)
	if len(errs) > 0 {
		return "", joinRenderErrors(errs)
	}
	return out, nil
}

func renderYAML(entries map[string]string) (string, []*RenderError) {
	if len(entries) == 0 {
		return "{}\n", nil
	}
	out, err := yaml.Marshal(entries)
	if err != nil {
		return "", []*RenderError{{Message: err.Error()}}
	}
	return string(out), nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// RenderEnvFile renders entries as a file a POSIX shell can source:
// NAME='value' lines, single quotes written as '\”. Every key that is not a
// shell variable name is a *RenderError.
func RenderEnvFile(entries map[string]string) (string, error) {
	out, errs := renderEnvFile(entries)
	if len(errs) > 0 {
		return "", joinRenderErrors(errs)
	}
	return out, nil
}

func renderEnvFile(entries map[string]string) (string, []*RenderError) {
	var (
		b    strings.Builder
		errs []*RenderError
	)
	for _, k := range sortedKeys(entries) {
		if !envName.MatchString(k) {
			errs = append(errs, &RenderError{Key: k, Message: "is not an environment variable name"})
			continue
		}
		b.WriteString(k)
		b.WriteString("='")
		b.WriteString(strings.ReplaceAll(entries[k], "'", `'\''`))
		b.WriteString("'\n")
	}
	return b.String(), errs
}

// RenderINI renders entries as "key = value" lines of an INI file without
// sections. INI has no escaping, so a key that is empty, contains "=" or a
// line break, starts with "[" or has surrounding spaces, and a value with a
// line break, are each a *RenderError. INI readers trim the whitespace
// around a value, so it does not survive a round trip.
func RenderINI(entries map[string]string) (string, error) {
	out, errs := renderINI(entries)
	if len(errs) > 0 {
		return "", joinRenderErrors(errs)
	}
	return out, nil
}

func renderINI(entries map[string]string) (string, []*RenderError) {
	var (
		b    strings.Builder
		errs []*RenderError
	)
	for _, k := range sortedKeys(entries) {
		v := entries[k]
		switch {
		case k == "" || strings.ContainsAny(k, "=\n\r") || strings.HasPrefix(k, "[") || strings.TrimSpace(k) != k:
			errs = append(errs, &RenderError{Key: k,
				Message: `cannot be an INI key: it is empty, holds "=" or a line break, starts with "[" or has surrounding spaces`})
		case strings.ContainsAny(v, "\n\r"):
			errs = append(errs, &RenderError{Key: k, Message: "the value has a line break, which INI cannot hold"})
		default:
			fmt.Fprintf(&b, "%s = %s\n", k, v)
		}
	}
	return b.String(), errs
}
