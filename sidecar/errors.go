package sidecar

import "fmt"

// RegistrationError reports a provider that cannot be registered, or a name
// that no registered provider has.
type RegistrationError struct {
	// Provider is the provider's name.
	Provider string
	// Message says what is wrong.
	Message string
}

// Error implements error.
func (e *RegistrationError) Error() string {
	return fmt.Sprintf("sidecar provider %q: %s", e.Provider, e.Message)
}

// InjectError reports a provider that failed to inject. The pod spec given
// to Manager.Inject is left unchanged.
type InjectError struct {
	// Provider is the provider's name.
	Provider string
	// Err is the cause.
	Err error
}

// Error implements error.
func (e *InjectError) Error() string {
	return fmt.Sprintf("inject sidecar %q: %v", e.Provider, e.Err)
}

// Unwrap returns the cause.
func (e *InjectError) Unwrap() error { return e.Err }

// ConflictError reports an addition that collides with something already in
// the pod spec: two containers or two volumes of one name, two ports of one
// name or number in a container, or an environment variable that cannot be
// extended.
type ConflictError struct {
	// Kind is what collides: "container", "volume", "port", "volumeMount"
	// or "env".
	Kind string
	// Name is the colliding name.
	Name string
	// Container is the container concerned, for ports, mounts and env.
	Container string
}

// Error implements error.
func (e *ConflictError) Error() string {
	if e.Container != "" {
		return fmt.Sprintf("%s %q of container %q already exists", e.Kind, e.Name, e.Container)
	}
	return fmt.Sprintf("%s %q already exists in the pod", e.Kind, e.Name)
}

// MissingObjectError reports an object a provider needs that does not
// exist, or lacks a key the provider reads.
type MissingObjectError struct {
	// Kind is the object's kind, "ConfigMap" or "Secret".
	Kind string
	// Namespace and Name locate the object.
	Namespace, Name string
	// Key is the missing key; empty when the whole object is missing.
	Key string
	// Field is the field of the cluster resource that named the object,
	// when a user named it; empty when the framework derived the name.
	Field string
}

// Error implements error.
func (e *MissingObjectError) Error() string {
	if e.Key != "" {
		return fmt.Sprintf("%s %s/%s has no key %q", e.Kind, e.Namespace, e.Name, e.Key)
	}
	return fmt.Sprintf("%s %s/%s not found", e.Kind, e.Namespace, e.Name)
}
