package productlogging_test

import (
	"fmt"

	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/productlogging"
)

// debugSpec sets one logger to DEBUG.
func debugSpec(logger string) *v1alpha1.ContainerLoggingSpec {
	return &v1alpha1.ContainerLoggingSpec{Loggers: map[string]v1alpha1.LogLevelSpec{
		logger: {Level: ptr.To(v1alpha1.LogLevelDebug)},
	}}
}

// A Log4j2 producer whose config file name ends in .xml gets the XML format;
// with a log agent collecting files, a rolling file appender writes Log4j
// XML events where the agent reads them.
func ExampleRender_log4j2XML() {
	p := productlogging.Producer{Container: "broker", Framework: productlogging.Log4j2, ConfigFile: "log4j2.xml"}
	text, err := productlogging.Render(p, debugSpec("kafka.controller"), productlogging.Options{CollectFiles: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(text)
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <!-- Log4j2 configuration; generated, do not edit. -->
	// <Configuration>
	//   <Appenders>
	//     <Console name="CONSOLE" target="SYSTEM_OUT">
	//       <PatternLayout pattern="%d{ISO8601} %-5p [%t] %c: %m%n"></PatternLayout>
	//       <ThresholdFilter level="INFO"></ThresholdFilter>
	//     </Console>
	//     <RollingFile name="FILE" fileName="/opkit/log/broker/broker.log4j2.xml" filePattern="/opkit/log/broker/broker.log4j2.xml.%i">
	//       <Log4j1XmlLayout></Log4j1XmlLayout>
	//       <ThresholdFilter level="INFO"></ThresholdFilter>
	//       <Policies>
	//         <SizeBasedTriggeringPolicy size="10485760"></SizeBasedTriggeringPolicy>
	//       </Policies>
	//       <DefaultRolloverStrategy max="1"></DefaultRolloverStrategy>
	//     </RollingFile>
	//   </Appenders>
	//   <Loggers>
	//     <Logger name="kafka.controller" level="DEBUG"></Logger>
	//     <Root level="INFO">
	//       <AppenderRef ref="CONSOLE"></AppenderRef>
	//       <AppenderRef ref="FILE"></AppenderRef>
	//     </Root>
	//   </Loggers>
	// </Configuration>
}

func ExampleRender_logback() {
	p := productlogging.Producer{Container: "coordinator", Framework: productlogging.Logback}
	text, err := productlogging.Render(p, debugSpec("io.trino.execution"), productlogging.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(text)
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <!-- Logback configuration; generated, do not edit. -->
	// <configuration>
	//   <appender name="CONSOLE" class="ch.qos.logback.core.ConsoleAppender">
	//     <encoder>
	//       <pattern>%d{ISO8601} %-5level [%thread] %logger: %msg%n</pattern>
	//     </encoder>
	//     <filter class="ch.qos.logback.classic.filter.ThresholdFilter">
	//       <level>INFO</level>
	//     </filter>
	//   </appender>
	//   <logger name="io.trino.execution" level="DEBUG"></logger>
	//   <root level="INFO">
	//     <appender-ref ref="CONSOLE"></appender-ref>
	//   </root>
	// </configuration>
}

func ExampleRender_python() {
	p := productlogging.Producer{Container: "superset", Framework: productlogging.Python}
	text, err := productlogging.Render(p, debugSpec("superset.views"), productlogging.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(text)
	// Output:
	// # Python logging configuration; generated, do not edit.
	// disable_existing_loggers: false
	// formatters:
	//   console:
	//     format: '%(asctime)s %(levelname)-8s [%(name)s] %(message)s'
	// handlers:
	//   console:
	//     class: logging.StreamHandler
	//     formatter: console
	//     level: INFO
	//     stream: ext://sys.stdout
	// loggers:
	//   superset.views:
	//     level: DEBUG
	// root:
	//   handlers:
	//   - console
	//   level: INFO
	// version: 1
}
