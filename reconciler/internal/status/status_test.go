package status_test

import (
	"context"
	"errors"
	"testing"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler/internal/fresh"
	"github.com/opkit-dev/opkit/reconciler/internal/status"
)

// The status here is a Namespace's: a built-in kind with a status
// subresource, which the fake client honours.
func phaseOf(o client.Object) any { return o.(*corev1.Namespace).Status.Phase }

func TestUpdateRetriesOnlyWhenNobodyElseWroteTheStatus(t *testing.T) {
	tests := []struct {
		name string
		// meanwhile is what someone else writes before the first attempt.
		meanwhile   func(ctx context.Context, c client.Client, ns *corev1.Namespace) error
		wantErr     error
		wantPhase   corev1.NamespacePhase
		wantAttempt int
	}{
		{
			name:        "no conflict",
			wantPhase:   corev1.NamespaceTerminating,
			wantAttempt: 1,
		},
		{
			name: "someone changed the labels: retried on the new version",
			meanwhile: func(ctx context.Context, c client.Client, ns *corev1.Namespace) error {
				ns.Labels = map[string]string{"team": "a"}
				return c.Update(ctx, ns)
			},
			wantPhase:   corev1.NamespaceTerminating,
			wantAttempt: 2,
		},
		{
			name: "someone wrote the status: not written, a retriable error",
			meanwhile: func(ctx context.Context, c client.Client, ns *corev1.Namespace) error {
				ns.Status.Phase = "Elsewhere"
				return c.Status().Update(ctx, ns)
			},
			wantErr:     failure.ErrRetriable,
			wantPhase:   "Elsewhere",
			wantAttempt: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			orig := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
			attempts := 0
			c := fake.NewClientBuilder().WithObjects(orig).WithStatusSubresource(orig).WithInterceptorFuncs(interceptor.Funcs{
				SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
					attempts++
					return c.SubResource(sub).Update(ctx, obj, opts...)
				},
			}).Build()
			ours := &corev1.Namespace{}
			if err := c.Get(ctx, client.ObjectKey{Name: "shop"}, ours); err != nil {
				t.Fatal(err)
			}
			if tt.meanwhile != nil {
				theirs := ours.DeepCopy()
				if err := tt.meanwhile(ctx, c, theirs); err != nil {
					t.Fatal(err)
				}
				attempts = 0
			}
			start := ours.Status.Phase
			ours.Status.Phase = corev1.NamespaceTerminating
			var versions fresh.Versions
			before := ours.ResourceVersion
			err := status.Update(ctx, status.Target{Client: c, Reader: c, Versions: &versions}, ours, start, phaseOf)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Update: %v, want %v", err, tt.wantErr)
			}
			got := &corev1.Namespace{}
			if err := c.Get(ctx, client.ObjectKey{Name: "shop"}, got); err != nil {
				t.Fatal(err)
			}
			if got.Status.Phase != tt.wantPhase {
				t.Errorf("stored phase %q, want %q", got.Status.Phase, tt.wantPhase)
			}
			if attempts != tt.wantAttempt {
				t.Errorf("%d status writes, want %d", attempts, tt.wantAttempt)
			}
			if err == nil && tt.meanwhile == nil && !versions.Stale(types.NamespacedName{Name: "shop"}, ours.UID, before) {
				t.Error("the replaced version was not recorded")
			}
		})
	}
}

// A resource deleted during the pass is not an error.
func TestUpdateOfAGoneResource(t *testing.T) {
	c := fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
		SubResourceUpdate: func(context.Context, client.Client, string, client.Object, ...client.SubResourceUpdateOption) error {
			return apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, "shop")
		},
	}).Build()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
	if err := status.Update(t.Context(), status.Target{Client: c, Reader: c}, ns, nil, phaseOf); err != nil {
		t.Fatalf("Update of a gone resource: %v", err)
	}
}

func TestTruncateKeepsUTF8(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghij", 8, "abcde..."},
		{"ééééé", 8, "éé..."}, // 10 bytes; cutting at 5 would split an é
	}
	for _, tt := range tests {
		got := status.Truncate(tt.in, tt.n)
		if got != tt.want || !utf8.ValidString(got) || len(got) > max(tt.n, len(tt.in)) {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
