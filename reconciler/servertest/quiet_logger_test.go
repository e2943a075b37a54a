package servertest_test

import (
	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
)

// quietLogger is a logger that writes nothing. A manager given
// logr.Discard(), whose sink is nil, uses controller-runtime's
// process-wide logger instead, which warns that it was never set.
func quietLogger() logr.Logger {
	return funcr.New(func(string, string) {}, funcr.Options{})
}
