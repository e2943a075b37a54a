// Package examples holds runnable operators built with opkit:
//
//   - kafka: a product operator (command kafka) for KafkaCluster resources,
//     controllers and brokers in KRaft mode, built on opkit's product
//     reconciler;
//   - website: a component operator (command website) for Website
//     resources, a Helm chart and a kustomization rendered by opkit's
//     component reconciler;
//   - demo: the command behind make demo, which runs the example operators
//     on an embedded control plane and walks through what they do;
//   - image: the command behind make images, which builds the operators'
//     images without a container runtime;
//   - deploy: tests that deploy each operator's config/default to a real
//     control plane.
//
// Each operator has a Dockerfile and a kustomize tree (config/default
// deploys it); see the README of each directory for how to deploy it to
// a real cluster or run it against one.
package examples

//go:generate go run ./internal/rbacgen
