// Package servertest proves module authentication against a real API
// server: references resolved from real, cluster-scoped
// AuthenticationClasses, a missing class waited for, an unsupported or
// incomplete one refused naming the user's field.
package servertest
