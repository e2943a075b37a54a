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
	if len(entries) == 0 {
		return "{}\n", nil
	}
	out, err := yaml.Marshal(entries)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// RenderEnvFile renders entries as a file a POSIX shell can source:
// NAME='value' lines, single quotes written as '\”. A key that is not a
// shell variable name is an error.
func RenderEnvFile(entries map[string]string) (string, error) {
	var b strings.Builder
	for _, k := range sortedKeys(entries) {
		if !envName.MatchString(k) {
			return "", fmt.Errorf("%q is not an environment variable name", k)
		}
		b.WriteString(k)
		b.WriteString("='")
		b.WriteString(strings.ReplaceAll(entries[k], "'", `'\''`))
		b.WriteString("'\n")
	}
	return b.String(), nil
}

// RenderINI renders entries as "key = value" lines of an INI file without
// sections. INI has no escaping, so a key containing "=", "[" at its start,
// or a line break in a key or value is an error. INI readers trim the
// whitespace around a value, so it does not survive a round trip.
func RenderINI(entries map[string]string) (string, error) {
	var b strings.Builder
	for _, k := range sortedKeys(entries) {
		v := entries[k]
		if k == "" || strings.ContainsAny(k, "=\n\r") || strings.HasPrefix(k, "[") || strings.TrimSpace(k) != k {
			return "", fmt.Errorf("%q cannot be an INI key", k)
		}
		if strings.ContainsAny(v, "\n\r") {
			return "", fmt.Errorf("the value of %q has a line break, which INI cannot hold", k)
		}
		fmt.Fprintf(&b, "%s = %s\n", k, v)
	}
	return b.String(), nil
}
