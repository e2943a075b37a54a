package reconciler

import (
	"context"

	"github.com/go-logr/logr"
)

// loggerFrom returns the logger ctx carries, or fallback when it carries
// none. The reconciler never logs through controller-runtime's
// process-wide logger, which an operator may not have set.
func loggerFrom(ctx context.Context, fallback logr.Logger) logr.Logger {
	if log, err := logr.FromContext(ctx); err == nil {
		return log
	}
	return fallback
}
