// Package servertest holds the builders tests that need a real API server:
// objects at the longest names, a restricted namespace's dry run of every
// built object (sidecars and pod overrides included), and pods the
// StatefulSet controller makes from a built template. It is its own module,
// so the builders module requires no test control plane.
package servertest
