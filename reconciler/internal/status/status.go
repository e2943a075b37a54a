package status

import (
	"context"
	"fmt"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/reconciler/internal/fresh"
)

// Target is where a status is written.
type Target struct {
	// Client writes the status subresource.
	Client client.Client
	// Reader reads the resource afresh after a conflict (uncached).
	Reader client.Reader
	// Versions, when set, records the version each write replaced.
	Versions *fresh.Versions
	// FieldOwner, when set, is the field manager of the write.
	FieldOwner string
}

// maxAttempts bounds the writes of one Update.
const maxAttempts = 3

// Update writes obj's status. On a conflict it reads obj afresh through
// the target's reader: when the status there is still orig, the status the
// pass started from (statusOf extracts it for comparison), only the
// metadata or spec moved on, and the write is retried on the fresh
// resourceVersion; otherwise someone else wrote the status and Update
// returns a retriable error, so that nothing computed from a stale status
// is written. A resource deleted meanwhile is not an error. The caller
// decides whether the status changed at all: Update always writes.
func Update(ctx context.Context, t Target, obj client.Object, orig any, statusOf func(client.Object) any) error {
	var opts []client.SubResourceUpdateOption
	if t.FieldOwner != "" {
		opts = append(opts, client.FieldOwner(t.FieldOwner))
	}
	for attempt := 1; ; attempt++ {
		before := obj.GetResourceVersion()
		err := t.Client.Status().Update(ctx, obj, opts...)
		switch {
		case err == nil:
			if t.Versions != nil {
				t.Versions.Wrote(client.ObjectKeyFromObject(obj), obj.GetUID(), before)
			}
			return nil
		case apierrors.IsNotFound(err):
			return nil
		case !apierrors.IsConflict(err) || attempt >= maxAttempts:
			return fmt.Errorf("writing the status: %w", apierr.Classify(err))
		}
		current, ok := obj.DeepCopyObject().(client.Object)
		if !ok {
			return fmt.Errorf("writing the status: %T is not an object", obj)
		}
		if err := t.Reader.Get(ctx, client.ObjectKeyFromObject(obj), current); err != nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("re-reading after a status conflict: %w", apierr.Classify(err))
		}
		if !equality.Semantic.DeepEqual(statusOf(current), orig) {
			return failure.Retriable(fmt.Errorf("the status was written by someone else during the pass"), 0)
		}
		obj.SetResourceVersion(current.GetResourceVersion())
	}
}

// MaxMessage bounds a condition message (the API allows 32 KiB): a pass
// failing in many places stays readable and storable.
const MaxMessage = 4096

// MaxEventNote bounds an event's note (the events API refuses more than
// 1 KiB).
const MaxEventNote = 1000

// Truncate returns s cut to at most n bytes, ending in "...", when it is
// longer; the cut never splits a UTF-8 sequence.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n-3, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
