// Package samples holds the example Kafka operator's sample resources,
// embedded so the demo applies exactly what the README shows.
package samples

import "embed"

// Files holds kafkacluster.yaml (the KafkaCluster) and dependencies.yaml
// (the Secret and ConfigMap it refers to).
//
//go:embed *.yaml
var Files embed.FS
