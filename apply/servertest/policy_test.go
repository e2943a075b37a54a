package servertest

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
)

func TestReconcilePolicies(t *testing.T) {
	tests := []struct {
		policy          apply.ReconcilePolicy
		changeObject    bool
		changeComponent bool
		wantWrites      int
	}{
		{policy: apply.ReconcilePolicyOnObjectChange, changeObject: true, wantWrites: 1},
		{policy: apply.ReconcilePolicyOnObjectChange, changeComponent: true, wantWrites: 0},
		{policy: apply.ReconcilePolicyOnObjectOrComponentChange, changeComponent: true, wantWrites: 1},
		{policy: apply.ReconcilePolicyOnce, changeObject: true, wantWrites: 0},
	}
	for _, tt := range tests {
		t.Run(string(tt.policy), func(t *testing.T) {
			f := newFixture(t, "owner-a", apply.Options{})
			f.owner.ComponentDigest = "c1"
			ann := map[string]string{key(apply.AnnotationReconcilePolicy): string(tt.policy)}
			f.applyUntilReady(configMap(f.ns, "cm", map[string]string{"k": "1"}, ann))

			next := configMap(f.ns, "cm", map[string]string{"k": "1"}, ann)
			if tt.changeObject {
				next.Data["k"] = "2"
			}
			if tt.changeComponent {
				f.owner.ComponentDigest = "c2"
			}
			before := f.counter.Snapshot()
			_, err := f.r.Apply(t.Context(), &f.inv, []client.Object{next}, f.pass())
			require.NoError(t, err)
			require.Equal(t, tt.wantWrites, f.counter.Snapshot().Sub(before).Writes())
		})
	}
}

func TestRecreatePolicyReplacesTheObject(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{UpdatePolicy: apply.UpdatePolicyRecreate})
	f.applyUntilReady(configMap(f.ns, "cm", map[string]string{"k": "1"}, nil))
	first := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "cm"}, first))

	f.applyUntilReady(configMap(f.ns, "cm", map[string]string{"k": "2"}, nil))
	second := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "cm"}, second))
	require.NotEqual(t, first.UID, second.UID)
	require.Equal(t, "2", second.Data["k"])
}

func TestServerSideApplyPolicies(t *testing.T) {
	tests := []struct {
		policy apply.UpdatePolicy
		want   map[string]string
	}{
		// A merge leaves what kubectl and the injector wrote alone.
		{policy: apply.UpdatePolicySSAMerge, want: map[string]string{"ours": "2", "theirs": "x", "ca": "pem"}},
		// An override takes kubectl's fields over, so our apply removes
		// them, but leaves a controller's injected field to it.
		{policy: apply.UpdatePolicySSAOverride, want: map[string]string{"ours": "2", "ca": "pem"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.policy), func(t *testing.T) {
			f := newFixture(t, "owner-a", apply.Options{UpdatePolicy: tt.policy})
			existing := configMap(f.ns, "cm", map[string]string{"ours": "1", "theirs": "x"}, nil)
			require.NoError(t, f.c.Create(t.Context(), existing, client.FieldOwner("kubectl-client-side-apply")))
			existing.Data["ca"] = "pem"
			require.NoError(t, f.c.Update(t.Context(), existing, client.FieldOwner("ca-injector")))

			f.applyUntilReady(configMap(f.ns, "cm", map[string]string{"ours": "2"}, nil))
			live := &corev1.ConfigMap{}
			require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(existing), live))
			if diff := cmp.Diff(tt.want, live.Data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMissingNamespacesPolicy(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{MissingNamespacesPolicy: apply.MissingNamespacesPolicyDoNotCreate})
	missing := f.ns + "-missing"
	cm := configMap(missing, "cm", nil, nil)
	_, err := f.r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
	require.True(t, errors.Is(err, failure.ErrRequeue), "want a wait (failure.ErrRequeue), got %v", err)

	creating, err := apply.New(name, f.c, apply.Options{})
	require.NoError(t, err)
	f.r = creating
	f.applyUntilReady(cm)
	ns := &corev1.Namespace{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Name: missing}, ns))
	t.Cleanup(func() { _ = f.c.Delete(context.Background(), ns) })
}
