package productlogging

import (
	"encoding/xml"
	"strconv"
)

type logbackConfig struct {
	XMLName   xml.Name          `xml:"configuration"`
	Appenders []logbackAppender `xml:"appender"`
	Loggers   []logbackLogger   `xml:"logger"`
	Root      logbackRoot       `xml:"root"`
}

type logbackAppender struct {
	Name             string                `xml:"name,attr"`
	Class            string                `xml:"class,attr"`
	File             string                `xml:"file,omitempty"`
	Encoder          logbackEncoder        `xml:"encoder"`
	Filter           logbackFilter         `xml:"filter"`
	RollingPolicy    *logbackRollingPolicy `xml:"rollingPolicy,omitempty"`
	TriggeringPolicy *logbackTriggerPolicy `xml:"triggeringPolicy,omitempty"`
}

type logbackEncoder struct {
	Class   string         `xml:"class,attr,omitempty"`
	Pattern string         `xml:"pattern,omitempty"`
	Layout  *logbackLayout `xml:"layout,omitempty"`
}

type logbackLayout struct {
	Class string `xml:"class,attr"`
}

type logbackFilter struct {
	Class string `xml:"class,attr"`
	Level string `xml:"level"`
}

type logbackRollingPolicy struct {
	Class           string `xml:"class,attr"`
	FileNamePattern string `xml:"fileNamePattern"`
	MinIndex        int    `xml:"minIndex"`
	MaxIndex        int    `xml:"maxIndex"`
}

type logbackTriggerPolicy struct {
	Class       string `xml:"class,attr"`
	MaxFileSize string `xml:"maxFileSize"`
}

type logbackLogger struct {
	Name  string `xml:"name,attr"`
	Level string `xml:"level,attr"`
}

type logbackRoot struct {
	Level string       `xml:"level,attr"`
	Refs  []logbackRef `xml:"appender-ref"`
}

type logbackRef struct {
	Ref string `xml:"ref,attr"`
}

const logbackThresholdFilter = "ch.qos.logback.classic.filter.ThresholdFilter"

// renderLogback renders a Logback XML file. The file appender writes Log4j
// XML events through Logback's log4j layout.
func renderLogback(p Producer, lv levels, opts Options) (string, error) {
	cfg := logbackConfig{
		Appenders: []logbackAppender{{
			Name:    "CONSOLE",
			Class:   "ch.qos.logback.core.ConsoleAppender",
			Encoder: logbackEncoder{Pattern: logbackConsolePattern},
			Filter:  logbackFilter{Class: logbackThresholdFilter, Level: javaLevel(Logback, lv.console)},
		}},
		Root: logbackRoot{Level: javaLevel(Logback, lv.root), Refs: []logbackRef{{Ref: "CONSOLE"}}},
	}
	if opts.CollectFiles {
		cfg.Appenders = append(cfg.Appenders, logbackAppender{
			Name:  "FILE",
			Class: "ch.qos.logback.core.rolling.RollingFileAppender",
			File:  p.LogFilePath(),
			Encoder: logbackEncoder{
				Class:  "ch.qos.logback.core.encoder.LayoutWrappingEncoder",
				Layout: &logbackLayout{Class: "ch.qos.logback.classic.log4j.XMLLayout"},
			},
			Filter: logbackFilter{Class: logbackThresholdFilter, Level: javaLevel(Logback, lv.file)},
			RollingPolicy: &logbackRollingPolicy{
				Class:           "ch.qos.logback.core.rolling.FixedWindowRollingPolicy",
				FileNamePattern: p.LogFilePath() + ".%i",
				MinIndex:        1,
				MaxIndex:        1,
			},
			TriggeringPolicy: &logbackTriggerPolicy{
				Class:       "ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy",
				MaxFileSize: strconv.FormatInt(opts.maxFileSize(), 10),
			},
		})
		cfg.Root.Refs = append(cfg.Root.Refs, logbackRef{Ref: "FILE"})
	}
	for _, l := range lv.loggers {
		cfg.Loggers = append(cfg.Loggers, logbackLogger{Name: l.name, Level: javaLevel(Logback, l.level)})
	}
	return marshalXML(cfg, "Logback configuration")
}
