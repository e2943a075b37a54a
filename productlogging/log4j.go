package productlogging

import (
	"strconv"

	"github.com/opkit-dev/opkit/builders/properties"
)

// renderLog4j renders a Log4j 1.x properties file.
func renderLog4j(p Producer, lv levels, opts Options) string {
	var w properties.Writer
	w.Comment("Log4j configuration of container " + p.Container + "; generated, do not edit.")
	root := javaLevel(Log4j, lv.root) + ", CONSOLE"
	if opts.CollectFiles {
		root += ", FILE"
	}
	w.Set("log4j.rootLogger", root)
	w.Set("log4j.appender.CONSOLE", "org.apache.log4j.ConsoleAppender")
	w.Set("log4j.appender.CONSOLE.Threshold", javaLevel(Log4j, lv.console))
	w.Set("log4j.appender.CONSOLE.layout", "org.apache.log4j.PatternLayout")
	w.Set("log4j.appender.CONSOLE.layout.ConversionPattern", javaConsolePattern)
	if opts.CollectFiles {
		w.Set("log4j.appender.FILE", "org.apache.log4j.RollingFileAppender")
		w.Set("log4j.appender.FILE.Threshold", javaLevel(Log4j, lv.file))
		w.Set("log4j.appender.FILE.File", p.LogFilePath())
		w.Set("log4j.appender.FILE.MaxFileSize", strconv.FormatInt(opts.maxFileSize(), 10))
		w.Set("log4j.appender.FILE.MaxBackupIndex", "1")
		w.Set("log4j.appender.FILE.layout", "org.apache.log4j.xml.XMLLayout")
	}
	for _, l := range lv.loggers {
		w.Set("log4j.logger."+l.name, javaLevel(Log4j, l.level))
	}
	return w.String()
}
