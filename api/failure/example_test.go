package failure_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/opkit-dev/opkit/api/failure"
)

// A module's own error type joins a class through its Is method and keeps
// its fields.
type missingRoleError struct{ Role string }

func (e *missingRoleError) Error() string         { return fmt.Sprintf("role %q is not declared", e.Role) }
func (e *missingRoleError) Is(target error) bool  { return target == failure.ErrInvalid }
func (e *missingRoleError) Blame() failure.Author { return failure.AuthorUser }
func (e *missingRoleError) FieldPath() string     { return "spec.roles." + e.Role }

func Example() {
	err := errors.Join(
		fmt.Errorf("pass: %w", &missingRoleError{Role: "servr"}),
		failure.RequeueAfter(10*time.Second, "Secret tls not found"),
	)
	fmt.Println(failure.ClassOf(err))
	fmt.Println(errors.Is(err, failure.ErrRequeue))
	fmt.Println(failure.AuthorOf(err), failure.FieldOf(err))
	fmt.Println(failure.Delay(err))
	// Output:
	// invalid
	// true
	// user spec.roles.servr
	// 10s
}

// A pass whose one role group waits on a foreign object while another hit
// a server error reports the wait, and is retried with the backoff.
func ExampleRetryOf() {
	err := errors.Join(
		fmt.Errorf("role group gateway/default: %w", failure.RequeueAfter(30*time.Second, "ConfigMap web is someone else's")),
		fmt.Errorf("role group server/default: %w", failure.Retriable(errors.New("500 Internal Server Error"), 0)),
	)
	rt := failure.RetryOf(err)
	fmt.Println(failure.ClassOf(err))
	fmt.Println(rt.Backoff, rt.Wait, rt.After)
	// Output:
	// requeue
	// true true 30s
}
