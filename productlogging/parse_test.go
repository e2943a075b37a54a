package productlogging

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/magiconair/properties"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// wantLoggers is what trickySpec's named loggers must read back as, per
// framework (levels differ where a framework lacks one).
var wantLoggers = map[Framework]map[string]string{
	Log4j:   {"org.example.Server": "TRACE", "odd name=with:chars#!": "FATAL", "café<&>\"quoted\"": "OFF"},
	Log4j2:  {"org.example.Server": "TRACE", "odd name=with:chars#!": "FATAL", "café<&>\"quoted\"": "OFF"},
	Logback: {"org.example.Server": "TRACE", "odd name=with:chars#!": "ERROR", "café<&>\"quoted\"": "OFF"},
}

func TestLog4jPropertiesParseBack(t *testing.T) {
	p := Producer{Container: "zk", Framework: Log4j}
	out, err := Render(p, trickySpec(), Options{CollectFiles: true})
	require.NoError(t, err)
	props, err := properties.LoadString(out)
	require.NoError(t, err)

	got := map[string]string{}
	for _, k := range props.Keys() {
		if name, ok := strings.CutPrefix(k, "log4j.logger."); ok {
			got[name] = props.MustGetString(k)
		}
	}
	if diff := cmp.Diff(wantLoggers[Log4j], got); diff != "" {
		t.Errorf("loggers (-want +got):\n%s", diff)
	}
	require.Equal(t, "ERROR, CONSOLE, FILE", props.MustGetString("log4j.rootLogger"))
	require.Equal(t, p.LogFilePath(), props.MustGetString("log4j.appender.FILE.File"))
	require.Equal(t, "org.apache.log4j.xml.XMLLayout", props.MustGetString("log4j.appender.FILE.layout"))
	require.Equal(t, "%d{ISO8601} %-5p [%t] %c: %m%n", props.MustGetString("log4j.appender.CONSOLE.layout.ConversionPattern"))
}

func TestLog4j2PropertiesParseBack(t *testing.T) {
	p := Producer{Container: "kafka", Framework: Log4j2}
	out, err := Render(p, trickySpec(), Options{CollectFiles: true})
	require.NoError(t, err)
	props, err := properties.LoadString(out)
	require.NoError(t, err)

	got := map[string]string{}
	for _, k := range props.Keys() {
		if id, ok := strings.CutSuffix(k, ".name"); ok && strings.HasPrefix(k, "logger.") {
			got[props.MustGetString(k)] = props.MustGetString(id + ".level")
		}
	}
	if diff := cmp.Diff(wantLoggers[Log4j2], got); diff != "" {
		t.Errorf("loggers (-want +got):\n%s", diff)
	}
	require.Equal(t, "ERROR", props.MustGetString("rootLogger.level"))
	require.Equal(t, "FILE", props.MustGetString("rootLogger.appenderRef.file.ref"))
	require.Equal(t, p.LogFilePath(), props.MustGetString("appender.file.fileName"))
}

// xmlDoc is a generic element tree for structural checks.
type xmlNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xmlNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n xmlNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n xmlNode) all(name string) []xmlNode {
	var out []xmlNode
	for _, c := range n.Children {
		if c.XMLName.Local == name {
			out = append(out, c)
		}
		out = append(out, c.all(name)...)
	}
	return out
}

func parseXML(t *testing.T, doc string) xmlNode {
	t.Helper()
	var root xmlNode
	dec := xml.NewDecoder(strings.NewReader(doc))
	dec.Strict = true
	require.NoError(t, dec.Decode(&root), "well-formed XML")
	return root
}

func TestLog4j2XMLParseBack(t *testing.T) {
	p := Producer{Container: "kafka", Framework: Log4j2, ConfigFile: "log4j2.xml"}
	out, err := Render(p, trickySpec(), Options{CollectFiles: true})
	require.NoError(t, err)
	root := parseXML(t, out)
	require.Equal(t, "Configuration", root.XMLName.Local)

	got := map[string]string{}
	for _, l := range root.all("Logger") {
		got[l.attr("name")] = l.attr("level")
	}
	if diff := cmp.Diff(wantLoggers[Log4j2], got); diff != "" {
		t.Errorf("loggers (-want +got):\n%s", diff)
	}
	files := root.all("RollingFile")
	require.Len(t, files, 1)
	require.Equal(t, p.LogFilePath(), files[0].attr("fileName"))
	require.Len(t, files[0].all("Log4j1XmlLayout"), 1)
	var refs []string
	for _, r := range root.all("AppenderRef") {
		refs = append(refs, r.attr("ref"))
	}
	require.Equal(t, []string{"CONSOLE", "FILE"}, refs)
}

func TestLogbackParseBack(t *testing.T) {
	p := Producer{Container: "trino", Framework: Logback}
	out, err := Render(p, trickySpec(), Options{CollectFiles: true})
	require.NoError(t, err)
	root := parseXML(t, out)
	require.Equal(t, "configuration", root.XMLName.Local)

	got := map[string]string{}
	for _, l := range root.all("logger") {
		got[l.attr("name")] = l.attr("level")
	}
	if diff := cmp.Diff(wantLoggers[Logback], got); diff != "" {
		t.Errorf("loggers (-want +got):\n%s", diff)
	}
	names := map[string]string{}
	for _, a := range root.all("appender") {
		names[a.attr("name")] = a.attr("class")
	}
	require.Equal(t, map[string]string{
		"CONSOLE": "ch.qos.logback.core.ConsoleAppender",
		"FILE":    "ch.qos.logback.core.rolling.RollingFileAppender",
	}, names)
	require.Equal(t, p.LogFilePath(), root.all("file")[0].Text)
	require.Equal(t, "ch.qos.logback.classic.log4j.XMLLayout", root.all("layout")[0].attr("class"))
}

func TestPythonParseBack(t *testing.T) {
	p := Producer{Container: "superset", Framework: Python}
	out, err := Render(p, trickySpec(), Options{CollectFiles: true})
	require.NoError(t, err)
	var doc struct {
		Version  int  `json:"version"`
		Disable  bool `json:"disable_existing_loggers"`
		Handlers map[string]struct {
			Class       string `json:"class"`
			Filename    string `json:"filename"`
			MaxBytes    int64  `json:"maxBytes"`
			BackupCount int    `json:"backupCount"`
			Level       string `json:"level"`
		} `json:"handlers"`
		Root struct {
			Level    string   `json:"level"`
			Handlers []string `json:"handlers"`
		} `json:"root"`
		Loggers map[string]struct {
			Level any `json:"level"`
		} `json:"loggers"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(out), &doc))
	require.Equal(t, 1, doc.Version)
	require.False(t, doc.Disable, "loggers created before the config is applied keep logging")
	require.Equal(t, "logging.handlers.RotatingFileHandler", doc.Handlers["file"].Class)
	require.Equal(t, p.LogFilePath(), doc.Handlers["file"].Filename)
	require.Equal(t, int64(DefaultMaxFileSize), doc.Handlers["file"].MaxBytes)
	require.Equal(t, "WARNING", doc.Handlers["console"].Level)
	require.Equal(t, []string{"console", "file"}, doc.Root.Handlers)
	require.Equal(t, "ERROR", doc.Root.Level)

	got := map[string]any{}
	for name, l := range doc.Loggers {
		got[name] = l.Level
	}
	want := map[string]any{"org.example.Server": "DEBUG", "odd name=with:chars#!": "CRITICAL", "café<&>\"quoted\"": float64(100)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loggers (-want +got):\n%s", diff)
	}
}
