package v1alpha1

// Driver is the CSI driver of the listener operator, and the storage class
// of the ephemeral volumes that ask it for a listener.
const Driver = "listeners.opkit.dev"

// Annotations of a listener volume's claim template, read by the listener
// operator. Each is Driver, "/", and a name.
const (
	// AnnotationClass asks for a listener of this class for the pod.
	AnnotationClass = Driver + "/class"
	// AnnotationName binds the pod to an existing listener of this name.
	AnnotationName = Driver + "/name"
)
