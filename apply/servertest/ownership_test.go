package servertest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

func TestAdoptionMatrix(t *testing.T) {
	const us, them = "owner-us", "owner-them"
	tests := []struct {
		state   string // unowned, ours, foreign
		policy  apply.AdoptionPolicy
		adopted bool
	}{
		{"unowned", apply.AdoptionPolicyNever, false},
		{"unowned", apply.AdoptionPolicyIfUnowned, true},
		{"unowned", apply.AdoptionPolicyAlways, true},
		{"ours", apply.AdoptionPolicyNever, true},
		{"ours", apply.AdoptionPolicyIfUnowned, true},
		{"ours", apply.AdoptionPolicyAlways, true},
		{"foreign", apply.AdoptionPolicyNever, false},
		{"foreign", apply.AdoptionPolicyIfUnowned, false},
		{"foreign", apply.AdoptionPolicyAlways, true},
	}
	f := newFixture(t, us, apply.Options{})
	for _, tt := range tests {
		t.Run(tt.state+"/"+string(tt.policy), func(t *testing.T) {
			cmName := tt.state + "-" + string(tt.policy)
			existing := configMap(f.ns, cmName, map[string]string{"k": "before"}, nil)
			switch tt.state {
			case "ours":
				stampOwner(t, f, existing, us)
			case "foreign":
				stampOwner(t, f, existing, them)
			}
			require.NoError(t, f.c.Create(t.Context(), existing))

			var inv inventory.Inventory
			desired := configMap(f.ns, cmName, map[string]string{"k": "after"},
				map[string]string{key(apply.AnnotationAdoptionPolicy): string(tt.policy)})
			_, err := f.r.Apply(t.Context(), &inv, []client.Object{desired}, f.pass())

			live := &corev1.ConfigMap{}
			require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(existing), live))
			want := map[string]string{"k": "before"}
			if tt.adopted {
				require.NoError(t, err)
				want["k"] = "after"
				require.Equal(t, us, live.Annotations[key(apply.AnnotationOwnerID)])
			} else {
				var oe *apply.OwnershipError
				require.True(t, errors.As(err, &oe), "want an OwnershipError, got %v", err)
				require.Equal(t, tt.policy, oe.Policy)
			}
			if diff := cmp.Diff(want, live.Data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}

// stampOwner marks obj as owned by ownerID the way an engine of that
// owner does.
func stampOwner(t *testing.T, f *fixture, obj client.Object, ownerID string) {
	t.Helper()
	k, v := f.r.OwnerLabel(ownerID)
	obj.SetLabels(map[string]string{k: v})
	obj.SetAnnotations(map[string]string{key(apply.AnnotationOwnerID): ownerID})
}

func TestDeleteLeavesForeignObjects(t *testing.T) {
	f := newFixture(t, "owner-us", apply.Options{})
	cm := configMap(f.ns, "taken", map[string]string{"k": "v"}, nil)
	f.applyUntilReady(cm)

	// Another owner takes the object over in the meantime.
	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live))
	live.Annotations[key(apply.AnnotationOwnerID)] = "owner-them"
	require.NoError(t, f.c.Update(t.Context(), live))

	f.deleteUntilDone()
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live), "a foreign object was deleted")
}
