package failure

import "errors"

// Author says whose mistake an invalid input is.
type Author int

// The authors.
const (
	// AuthorUnknown is an error that does not say.
	AuthorUnknown Author = iota
	// AuthorUser is the author of the cluster resource: the mistake is in
	// something they wrote, and they are told through a condition and a
	// Warning event on the resource.
	AuthorUser
	// AuthorOperator is the author of the operator: its code, its options or
	// the types it declares are wrong. Report it at startup, or as a
	// programming error; the cluster resource's author cannot fix it.
	AuthorOperator
)

// String returns "user", "operator" or "unknown".
func (a Author) String() string {
	switch a {
	case AuthorUser:
		return "user"
	case AuthorOperator:
		return "operator"
	default:
		return "unknown"
	}
}

// Blamer is an error that says whose mistake it is.
type Blamer interface {
	error
	// Blame returns the author of the mistake.
	Blame() Author
}

// Fielder is an error that names the field at fault.
type Fielder interface {
	error
	// FieldPath returns the absolute path of the field, as its author wrote
	// it: "spec.roles.server.roleGroups.default.config.affinity" for the
	// user, or an option or declaration name for the operator.
	FieldPath() string
}

// AuthorOf returns the author named by the first error in err's tree that
// implements Blamer, or AuthorUnknown.
func AuthorOf(err error) Author {
	var b Blamer
	if errors.As(err, &b) {
		return b.Blame()
	}
	return AuthorUnknown
}

// FieldOf returns the path named by the first error in err's tree that
// implements Fielder, or "".
func FieldOf(err error) string {
	var f Fielder
	if errors.As(err, &f) {
		return f.FieldPath()
	}
	return ""
}
