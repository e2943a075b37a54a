package productlogging

import (
	"github.com/opkit-dev/opkit/api/failure"
)

// ProducerError reports an invalid producer or a conflict between two.
// Producers are declared by the operator (a role's log producers), so it
// is of class failure.ErrInvalid, blamed on the operator's author.
type ProducerError struct {
	// Field is the path of the offending value in the producer list, e.g.
	// "logProducers[1].logFile".
	Field string
	// Message says what is wrong.
	Message string
}

// Error implements error.
func (e *ProducerError) Error() string { return e.Field + ": " + e.Message }

// Is reports the class failure.ErrInvalid.
func (e *ProducerError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns failure.AuthorOperator.
func (e *ProducerError) Blame() failure.Author { return failure.AuthorOperator }

// FieldPath returns Field.
func (e *ProducerError) FieldPath() string { return e.Field }
