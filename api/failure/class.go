package failure

import "errors"

// The four class values. Test for them with errors.Is anywhere in a chain;
// an error joins a class by returning true from Is(target) for its value.
var (
	// ErrInvalid classifies input that is wrong and will stay wrong until
	// its author changes it.
	ErrInvalid = errors.New("invalid input")
	// ErrRequeue classifies a wait: something is not ready yet.
	ErrRequeue = errors.New("not ready yet")
	// ErrRateLimited classifies a 429 Too Many Requests from the API server.
	ErrRateLimited = errors.New("rate-limited by the API server")
	// ErrRetriable classifies a transient failure worth retrying.
	ErrRetriable = errors.New("transient failure")
)

// Class is the class of an error, as ClassOf decides it.
type Class int

// The classes, from least to most urgent; ClassOf returns the most urgent
// class present in an error tree.
const (
	// ClassOther is an error of no declared class: retry with the usual
	// backoff.
	ClassOther Class = iota
	// ClassRetriable is ErrRetriable.
	ClassRetriable
	// ClassRequeue is ErrRequeue.
	ClassRequeue
	// ClassInvalid is ErrInvalid.
	ClassInvalid
	// ClassRateLimited is ErrRateLimited.
	ClassRateLimited
)

// String returns the class's name as a metric label would carry it:
// "other", "retriable", "requeue", "invalid" or "rate_limited".
func (c Class) String() string {
	switch c {
	case ClassRetriable:
		return "retriable"
	case ClassRequeue:
		return "requeue"
	case ClassInvalid:
		return "invalid"
	case ClassRateLimited:
		return "rate_limited"
	default:
		return "other"
	}
}

// Classes returns every class, least urgent first.
func Classes() []Class {
	return []Class{ClassOther, ClassRetriable, ClassRequeue, ClassInvalid, ClassRateLimited}
}

// ClassOf returns the most urgent class found anywhere in err's tree (joined
// errors included): a rate limit outranks invalid input, which outranks a
// wait, which outranks a transient failure. A pass that hit a 429 in one
// role group and a typo in another therefore backs off first. ClassOf(nil)
// is ClassOther.
func ClassOf(err error) Class {
	switch {
	case err == nil:
		return ClassOther
	case errors.Is(err, ErrRateLimited):
		return ClassRateLimited
	case errors.Is(err, ErrInvalid):
		return ClassInvalid
	case errors.Is(err, ErrRequeue):
		return ClassRequeue
	case errors.Is(err, ErrRetriable):
		return ClassRetriable
	default:
		return ClassOther
	}
}
