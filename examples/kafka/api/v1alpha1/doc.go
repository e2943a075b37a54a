// Package v1alpha1 defines KafkaCluster (group kafka.examples.opkit.dev),
// the cluster resource of the example Kafka operator: the common cluster
// spec and status every opkit product embeds, plus the product's own
// fields.
//
// +kubebuilder:object:generate=true
// +groupName=kafka.examples.opkit.dev
package v1alpha1

//go:generate ../../../../hack/controller-gen.sh object crd paths=./... output:crd:artifacts:config=../crd
