package apierr_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
)

func TestClassify(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	tests := []struct {
		name      string
		err       error
		class     failure.Class
		delay     time.Duration
		stillSeen func(error) bool
	}{
		{"nil", nil, failure.ClassOther, 0, func(err error) bool { return err == nil }},
		{"429 with Retry-After", apierrors.NewTooManyRequests("slow down", 7), failure.ClassRateLimited, 7 * time.Second, apierrors.IsTooManyRequests},
		{"429 without Retry-After", apierrors.NewTooManyRequests("slow down", 0), failure.ClassRateLimited, apierr.DefaultRateLimitDelay, apierrors.IsTooManyRequests},
		{"wrapped 429", fmt.Errorf("get x: %w", apierrors.NewTooManyRequests("", 2)), failure.ClassRateLimited, 2 * time.Second, apierrors.IsTooManyRequests},
		{"conflict", apierrors.NewConflict(gr, "x", errors.New("stale")), failure.ClassRetriable, 0, apierrors.IsConflict},
		{"503", apierrors.NewServiceUnavailable("down"), failure.ClassRetriable, 0, apierrors.IsServiceUnavailable},
		{"500", apierrors.NewInternalError(errors.New("boom")), failure.ClassRetriable, 0, apierrors.IsInternalError},
		{"server timeout", apierrors.NewServerTimeout(gr, "get", 3), failure.ClassRetriable, 3 * time.Second, apierrors.IsServerTimeout},
		{"not found stays unclassified", apierrors.NewNotFound(gr, "x"), failure.ClassOther, 0, apierrors.IsNotFound},
		{"forbidden stays unclassified", apierrors.NewForbidden(gr, "x", errors.New("rbac")), failure.ClassOther, 0, apierrors.IsForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := apierr.Classify(tt.err)
			if c := failure.ClassOf(got); c != tt.class {
				t.Errorf("class = %v, want %v", c, tt.class)
			}
			if d := failure.Delay(got); d != tt.delay {
				t.Errorf("delay = %v, want %v", d, tt.delay)
			}
			if !tt.stillSeen(got) {
				t.Errorf("the API server's error is no longer recognised in %v", got)
			}
		})
	}
}

func TestClassifyIsIdempotent(t *testing.T) {
	once := apierr.Classify(apierrors.NewTooManyRequests("", 1))
	if twice := apierr.Classify(once); twice != once { //nolint:errorlint // the very same error, not one wrapping it
		t.Errorf("classifying twice wrapped again: %v", twice)
	}
}
