package vector_test

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/vector"
)

// RenderConfig turns a role's log producers into the agent's vector.yaml.
func ExampleRenderConfig() {
	out, err := vector.RenderConfig(vector.ConfigOptions{
		Producers: []productlogging.Producer{
			{Container: "superset", Framework: productlogging.Python},
		},
		Aggregator: "vector-aggregator.logging.svc:6000",
		Scope:      builders.Scope{Namespace: "bi", Cluster: "superset", Role: "node", RoleGroup: "default"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(out)
	// Output:
	// # Vector agent configuration; generated, do not edit.
	// data_dir: /opkit/vector/data
	// sinks:
	//   aggregator:
	//     address: vector-aggregator.logging.svc:6000
	//     inputs:
	//     - enrich
	//     type: vector
	// sources:
	//   files_superset:
	//     include:
	//     - /opkit/log/superset/superset.python.log
	//     multiline:
	//       condition_pattern: ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}
	//       mode: halt_before
	//       start_pattern: ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}
	//       timeout_ms: 1000
	//     type: file
	// transforms:
	//   enrich:
	//     inputs:
	//     - parse_superset
	//     source: |
	//       .namespace = "bi"
	//       .cluster = "superset"
	//       .role = "node"
	//       .roleGroup = "default"
	//       .pod = get_env_var("POD_NAME") ?? ""
	//     type: remap
	//   parse_superset:
	//     inputs:
	//     - files_superset
	//     source: |
	//       .container = "superset"
	//       parsed, err = parse_regex(string!(.message), r'^(?P<time>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}) (?P<level>\S+) \[(?P<logger>[^\]]*)\] (?P<message>(?s:.*))$')
	//       if err != null {
	//         .parse_error = err
	//       } else {
	//         .logger = parsed.logger
	//         .level = parsed.level
	//         .message = parsed.message
	//         time, err = parse_timestamp(parsed.time, "%Y-%m-%dT%H:%M:%S%.3f")
	//         if err == null {
	//           .timestamp = time
	//         }
	//       }
	//     type: remap
}

// Decide is asked once per role group; its answer gates the provider and
// the file appenders alike.
func ExampleDecide() {
	enabled := &commonsv1alpha1.LoggingSpec{EnableVectorAgent: ptr.To(true)}
	producers := []productlogging.Producer{{Container: "trino", Framework: productlogging.Logback}}

	d := vector.Decide(vector.GateInput{AggregatorConfigMap: "vector-aggregator", Producers: producers, Logging: enabled})
	fmt.Println(d.Inject, d.Render, d.Warn, d.LoggingOptions().CollectFiles)

	// A role without log producers: skipped, no warning, the reason said.
	d = vector.Decide(vector.GateInput{AggregatorConfigMap: "vector-aggregator", Logging: enabled})
	fmt.Println(d.Inject, d.Warn, d.LoggingOptions().CollectFiles)
	fmt.Println(d.Reason)
	// Output:
	// true true false true
	// false false false
	// logging.enableVectorAgent is true, but the role declares no log producers, so there are no log files to collect; logs go to the console only
}

// The caller reads the discovery ConfigMap the requirement names (nil when
// there is none); AggregatorAddress judges it.
func ExampleAggregatorAddress() {
	scope := builders.Scope{Namespace: "bi", Cluster: "superset"}
	req := vector.AggregatorRequirement(scope, "vector-aggregator")
	fmt.Println(req.Kind, req.Namespace+"/"+req.Name, req.Keys, req.Field)

	addr, err := vector.AggregatorAddress(req, &corev1.ConfigMap{Data: map[string]string{"ADDRESS": "aggregator.logging.svc:6000"}})
	fmt.Println(addr, err)
	_, err = vector.AggregatorAddress(req, nil)
	fmt.Println(errors.Is(err, vector.ErrConfigMapNotFound), failure.AuthorOf(err), failure.FieldOf(err))
	// Output:
	// ConfigMap bi/vector-aggregator [ADDRESS] spec.vectorAggregatorConfigMapName
	// aggregator.logging.svc:6000 <nil>
	// true user spec.vectorAggregatorConfigMapName
}
