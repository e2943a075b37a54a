package servertest

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

// invalidView is what a test compares of an *apply.InvalidObjectError.
type invalidView struct {
	Object, Annotation, Reason string
}

func TestValidationRejectsBadInput(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	ok := configMap(f.ns, "ok", nil, nil)
	tests := []struct {
		name    string
		objects []client.Object
		want    invalidView
	}{
		{
			name:    "generateName",
			objects: []client.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, GenerateName: "x-", Name: "x"}}},
			want:    invalidView{Object: "ConfigMap " + f.ns + "/x", Reason: "generateName is not supported: objects need stable names"},
		},
		{
			name:    "duplicate",
			objects: []client.Object{ok, configMap(f.ns, "ok", nil, nil)},
			want:    invalidView{Object: "ConfigMap " + f.ns + "/ok", Reason: "appears more than once in the set"},
		},
		{
			name:    "unknown annotation",
			objects: []client.Object{configMap(f.ns, "u", nil, map[string]string{key("colour"): "blue"})},
			want:    invalidView{Object: "ConfigMap " + f.ns + "/u", Annotation: key("colour"), Reason: "unknown annotation"},
		},
		{
			name:    "order out of range",
			objects: []client.Object{configMap(f.ns, "o", nil, map[string]string{key(apply.AnnotationApplyOrder): "40000"})},
			want:    invalidView{Object: "ConfigMap " + f.ns + "/o", Annotation: key(apply.AnnotationApplyOrder), Reason: `"40000" is not an integer in [-32768, 32767]`},
		},
		{
			name:    "unknown policy",
			objects: []client.Object{configMap(f.ns, "p", nil, map[string]string{key(apply.AnnotationUpdatePolicy): "sometimes"})},
			want:    invalidView{Object: "ConfigMap " + f.ns + "/p", Annotation: key(apply.AnnotationUpdatePolicy), Reason: `unknown update policy "sometimes"`},
		},
		{
			name:    "purge order on a namespace",
			objects: []client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "n", Annotations: map[string]string{key(apply.AnnotationPurgeOrder): "1"}}}},
			want:    invalidView{Object: "Namespace n", Annotation: key(apply.AnnotationPurgeOrder), Reason: "not allowed on namespaces, CRDs and APIServices"},
		},
		{
			name:    "bad status hint",
			objects: []client.Object{configMap(f.ns, "h", nil, map[string]string{key(apply.AnnotationStatusHint): "has-colour"})},
			want:    invalidView{Object: "ConfigMap " + f.ns + "/h", Annotation: key(apply.AnnotationStatusHint), Reason: `unknown status hint "has-colour"`},
		},
		{
			name: "instance deleted after its type",
			objects: []client.Object{
				widgetCRD("late.example.com"),
				widget("late.example.com", f.ns, "w", map[string]string{key(apply.AnnotationDeleteOrder): "5"}),
			},
			want: invalidView{
				Object:     "Widget.late.example.com " + f.ns + "/w",
				Annotation: key(apply.AnnotationDeleteOrder),
				Reason:     "delete order 5 comes after 0 of CustomResourceDefinition.apiextensions.k8s.io widgets.late.example.com, which defines its type and is deleted only once no instance is left",
			},
		},
		{
			name: "instance applied before its type",
			objects: []client.Object{
				withAnnotations(widgetCRD("early.example.com"), map[string]string{key(apply.AnnotationApplyOrder): "2"}),
				widget("early.example.com", f.ns, "w", nil),
			},
			want: invalidView{
				Object:     "Widget.early.example.com " + f.ns + "/w",
				Annotation: key(apply.AnnotationApplyOrder),
				Reason:     "apply order 0 comes before 2 of CustomResourceDefinition.apiextensions.k8s.io widgets.early.example.com, which defines its type",
			},
		},
		{
			name: "object applied before its namespace",
			objects: []client.Object{
				&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: f.ns + "-late", Annotations: map[string]string{key(apply.AnnotationApplyOrder): "1"}}},
				configMap(f.ns+"-late", "c", nil, nil),
			},
			want: invalidView{
				Object:     "ConfigMap " + f.ns + "-late/c",
				Annotation: key(apply.AnnotationApplyOrder),
				Reason:     "apply order 0 comes before 1 of Namespace " + f.ns + "-late, the namespace it lives in",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inv inventory.Inventory
			_, err := f.r.Apply(t.Context(), &inv, tt.objects, f.pass())
			var ie *apply.InvalidObjectError
			require.True(t, errors.As(err, &ie), "want an InvalidObjectError, got %v", err)
			require.True(t, errors.Is(err, failure.ErrInvalid), "not of class invalid: %v", err)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
			got := invalidView{Object: ie.Object.String(), Annotation: ie.Annotation, Reason: ie.Reason}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			require.Empty(t, inv.Items, "nothing may be applied when the set is invalid")
		})
	}
}

func TestNamespacesFollowScopeAndSecretsMergeStringData(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: f.ns + "-reader", Namespace: "ignored"}}
	cm := configMap("", "defaulted", map[string]string{"k": "v"}, nil)
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "s"},
		Data:       map[string][]byte{"a": []byte("1")},
		StringData: map[string]string{"b": "2"},
	}
	f.applyUntilReady(role, cm, secret)
	t.Cleanup(func() { _ = f.c.Delete(context.Background(), role) })

	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Name: role.Name}, &rbacv1.ClusterRole{}))
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "defaulted"}, &corev1.ConfigMap{}))
	live := &corev1.Secret{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(secret), live))
	if diff := cmp.Diff(map[string][]byte{"a": []byte("1"), "b": []byte("2")}, live.Data); diff != "" {
		t.Errorf("secret data (-want +got):\n%s", diff)
	}
	// stringData is folded into data before the digest, so a second pass
	// sees no change and writes nothing.
	before := f.counter.Snapshot()
	_, err := f.r.Apply(t.Context(), &f.inv, []client.Object{role, cm, secret}, f.pass())
	require.NoError(t, err)
	require.Equal(t, 0, f.counter.Snapshot().Sub(before).Writes())
}

func withAnnotations[T client.Object](obj T, ann map[string]string) T {
	obj.SetAnnotations(ann)
	return obj
}
