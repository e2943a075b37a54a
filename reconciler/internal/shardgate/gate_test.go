package shardgate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

type sharding struct {
	owns    bool
	err     error
	notLive bool
}

func (s sharding) Owns(context.Context, client.Object) (bool, error) { return s.owns, s.err }
func (sharding) Selector() labels.Selector                           { return labels.Everything() }
func (sharding) DrainRequested() predicate.Predicate                 { return predicate.Funcs{} }
func (s sharding) Live() bool                                        { return !s.notLive }
func (sharding) BucketLabel() string                                 { return "bucket" }
func (sharding) Buckets() []string                                   { return nil }

// leaseKey marks the context WithLease returns.
type leaseKey struct{}

func (sharding) WithLease(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithValue(ctx, leaseKey{}, "lease"), func() {}
}

// reader finds the resource unless missing is set.
type reader struct{ missing bool }

func (r reader) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	if r.missing {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, key.Name)
	}
	obj.SetName(key.Name)
	return nil
}

func (reader) List(context.Context, client.ObjectList, ...client.ListOption) error { return nil }

// next records each pass, with "+lease" when it ran under WithLease.
type next struct{ passes []string }

func (n *next) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pass := req.Name
	if ctx.Value(leaseKey{}) != nil {
		pass += "+lease"
	}
	n.passes = append(n.passes, pass)
	return reconcile.Result{}, nil
}

func TestGate(t *testing.T) {
	tests := []struct {
		name     string
		sharding sharding
		missing  bool
		want     []string
		wantErr  bool
		retry    time.Duration
	}{
		{name: "owned: the pass runs under the lease", sharding: sharding{owns: true}, want: []string{"demo+lease"}},
		{name: "another replica's: no pass", sharding: sharding{}},
		{name: "not live: no pass, tried again", sharding: sharding{notLive: true}, retry: time.Second},
		{name: "the acknowledgement failed: retried, no pass", sharding: sharding{err: errors.New("conflict")}, wantErr: true},
		{name: "gone from the cache: the pass forgets it", sharding: sharding{}, missing: true, want: []string{"demo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := &next{}
			g := &shardgate.Gate{Sharding: tt.sharding, Reader: reader{missing: tt.missing},
				New: func() client.Object { return &corev1.ConfigMap{} }, Next: n}
			res, err := g.Reconcile(t.Context(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "demo"}})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Reconcile error = %v, want error %v", err, tt.wantErr)
			}
			if res.RequeueAfter != tt.retry {
				t.Errorf("RequeueAfter = %v, want %v", res.RequeueAfter, tt.retry)
			}
			if diff := cmp.Diff(tt.want, n.passes); diff != "" {
				t.Errorf("passes (-want +got):\n%s", diff)
			}
		})
	}
}
