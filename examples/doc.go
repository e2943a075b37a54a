// Package examples holds runnable operators built with opkit:
//
//   - kafka: a product operator (package kafka, command kafka) for
//     KafkaCluster resources, controllers and brokers in KRaft mode, built
//     on opkit's product reconciler;
//   - demo: the command behind make demo, which runs the example operators
//     on an embedded control plane and walks through what they do.
//
// See the README of each directory for how to run it against a real
// cluster.
package examples
