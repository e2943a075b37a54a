package productlogging_test

import (
	"fmt"

	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/productlogging"
)

func ExampleRender() {
	producer := productlogging.Producer{Container: "zookeeper", Framework: productlogging.Log4j}
	spec := &v1alpha1.ContainerLoggingSpec{
		Loggers: map[string]v1alpha1.LogLevelSpec{
			"org.apache.zookeeper.server.quorum": {Level: ptr.To(v1alpha1.LogLevelDebug)},
		},
	}
	// No log agent collects files here, so the rendering is console only.
	text, err := productlogging.Render(producer, spec, productlogging.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(producer.ConfigFileName())
	fmt.Print(text)
	// Output:
	// log4j.properties
	// # Log4j configuration of container zookeeper; generated, do not edit.
	// log4j.rootLogger=INFO, CONSOLE
	// log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender
	// log4j.appender.CONSOLE.Threshold=INFO
	// log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout
	// log4j.appender.CONSOLE.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c: %m%n
	// log4j.logger.org.apache.zookeeper.server.quorum=DEBUG
}

func ExampleValidateProducers() {
	err := productlogging.ValidateProducers([]productlogging.Producer{
		{Container: "broker", Framework: productlogging.Log4j2},
		{Container: "broker", Framework: productlogging.Logback},
	})
	fmt.Println(err)
	// Output:
	// logProducers[1].container: container "broker" is already configured by logProducers[0]
}
