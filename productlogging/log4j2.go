package productlogging

import (
	"encoding/xml"
	"fmt"
	"strconv"

	"github.com/opkit-dev/opkit/builders/properties"
)

// Log4j2's file appender uses Log4j1XmlLayout: it ships with log4j-core (no
// extra library) and writes the same XML events as Log4j 1.x and Logback's
// log4j layout, so one parser serves all three.

// renderLog4j2Properties renders a Log4j2 properties file.
func renderLog4j2Properties(p Producer, lv levels, opts Options) string {
	var w properties.Writer
	w.Comment("Log4j2 configuration of container " + p.Container + "; generated, do not edit.")
	w.Set("appender.console.type", "Console")
	w.Set("appender.console.name", "CONSOLE")
	w.Set("appender.console.target", "SYSTEM_OUT")
	w.Set("appender.console.layout.type", "PatternLayout")
	w.Set("appender.console.layout.pattern", javaConsolePattern)
	w.Set("appender.console.filter.threshold.type", "ThresholdFilter")
	w.Set("appender.console.filter.threshold.level", javaLevel(Log4j2, lv.console))
	if opts.CollectFiles {
		w.Set("appender.file.type", "RollingFile")
		w.Set("appender.file.name", "FILE")
		w.Set("appender.file.fileName", p.LogFilePath())
		w.Set("appender.file.filePattern", p.LogFilePath()+".%i")
		w.Set("appender.file.layout.type", "Log4j1XmlLayout")
		w.Set("appender.file.policies.type", "Policies")
		w.Set("appender.file.policies.size.type", "SizeBasedTriggeringPolicy")
		w.Set("appender.file.policies.size.size", strconv.FormatInt(opts.maxFileSize(), 10))
		w.Set("appender.file.strategy.type", "DefaultRolloverStrategy")
		w.Set("appender.file.strategy.max", "1")
		w.Set("appender.file.filter.threshold.type", "ThresholdFilter")
		w.Set("appender.file.filter.threshold.level", javaLevel(Log4j2, lv.file))
	}
	w.Set("rootLogger.level", javaLevel(Log4j2, lv.root))
	w.Set("rootLogger.appenderRef.console.ref", "CONSOLE")
	if opts.CollectFiles {
		w.Set("rootLogger.appenderRef.file.ref", "FILE")
	}
	// Logger ids are positional: a logger name may hold characters that
	// cannot appear in a properties key path.
	for i, l := range lv.loggers {
		id := fmt.Sprintf("logger.l%d", i)
		w.Set(id+".name", l.name)
		w.Set(id+".level", javaLevel(Log4j2, l.level))
	}
	return w.String()
}

type log4j2Config struct {
	XMLName   xml.Name         `xml:"Configuration"`
	Appenders log4j2Appenders  `xml:"Appenders"`
	Loggers   log4j2LoggerList `xml:"Loggers"`
}

type log4j2Appenders struct {
	Console log4j2Console      `xml:"Console"`
	File    *log4j2RollingFile `xml:"RollingFile,omitempty"`
}

type log4j2Console struct {
	Name      string          `xml:"name,attr"`
	Target    string          `xml:"target,attr"`
	Pattern   log4j2Pattern   `xml:"PatternLayout"`
	Threshold log4j2Threshold `xml:"ThresholdFilter"`
}

type log4j2Pattern struct {
	Pattern string `xml:"pattern,attr"`
}

type log4j2Threshold struct {
	Level string `xml:"level,attr"`
}

type log4j2RollingFile struct {
	Name        string          `xml:"name,attr"`
	FileName    string          `xml:"fileName,attr"`
	FilePattern string          `xml:"filePattern,attr"`
	Layout      struct{}        `xml:"Log4j1XmlLayout"`
	Threshold   log4j2Threshold `xml:"ThresholdFilter"`
	Policies    struct {
		Size struct {
			Size string `xml:"size,attr"`
		} `xml:"SizeBasedTriggeringPolicy"`
	} `xml:"Policies"`
	Strategy struct {
		Max string `xml:"max,attr"`
	} `xml:"DefaultRolloverStrategy"`
}

type log4j2LoggerList struct {
	Loggers []log4j2Logger `xml:"Logger"`
	Root    log4j2Root     `xml:"Root"`
}

type log4j2Logger struct {
	Name  string `xml:"name,attr"`
	Level string `xml:"level,attr"`
}

type log4j2Root struct {
	Level string      `xml:"level,attr"`
	Refs  []log4j2Ref `xml:"AppenderRef"`
}

type log4j2Ref struct {
	Ref string `xml:"ref,attr"`
}

// renderLog4j2XML renders a Log4j2 XML file.
func renderLog4j2XML(p Producer, lv levels, opts Options) (string, error) {
	cfg := log4j2Config{
		Appenders: log4j2Appenders{Console: log4j2Console{
			Name:      "CONSOLE",
			Target:    "SYSTEM_OUT",
			Pattern:   log4j2Pattern{Pattern: javaConsolePattern},
			Threshold: log4j2Threshold{Level: javaLevel(Log4j2, lv.console)},
		}},
		Loggers: log4j2LoggerList{Root: log4j2Root{
			Level: javaLevel(Log4j2, lv.root),
			Refs:  []log4j2Ref{{Ref: "CONSOLE"}},
		}},
	}
	if opts.CollectFiles {
		f := &log4j2RollingFile{
			Name:        "FILE",
			FileName:    p.LogFilePath(),
			FilePattern: p.LogFilePath() + ".%i",
			Threshold:   log4j2Threshold{Level: javaLevel(Log4j2, lv.file)},
		}
		f.Policies.Size.Size = strconv.FormatInt(opts.maxFileSize(), 10)
		f.Strategy.Max = "1"
		cfg.Appenders.File = f
		cfg.Loggers.Root.Refs = append(cfg.Loggers.Root.Refs, log4j2Ref{Ref: "FILE"})
	}
	for _, l := range lv.loggers {
		cfg.Loggers.Loggers = append(cfg.Loggers.Loggers, log4j2Logger{Name: l.name, Level: javaLevel(Log4j2, l.level)})
	}
	return marshalXML(cfg, "Log4j2 configuration")
}

// marshalXML renders v as an indented XML document under a comment
// header. title is a fixed string of this package, never user input, so it
// cannot hold "--".
func marshalXML(v any, title string) (string, error) {
	body, err := xml.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", fmt.Errorf("rendering XML: %w", err)
	}
	return xml.Header + "<!-- " + title + "; generated, do not edit. -->\n" + string(body) + "\n", nil
}
