// Package builders is the opkit module that owns pure construction of
// Kubernetes objects for role groups: bounded resource names, recommended and
// selector labels, StatefulSets, Services, ConfigMaps, PodDisruptionBudgets
// and RBAC objects, restricted pod security defaults, pod-override merging and
// config-file renderers. It never talks to the API server.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package builders
