package servertest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
)

// widgetCRD defines a namespaced kind with a status subresource, in a group
// unique to the test.
func widgetCRD(group string) *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
}

func widget(group, ns, name string, annotations map[string]string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(group + "/v1")
	u.SetKind("Widget")
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetAnnotations(annotations)
	return u
}

func TestManagedTypesAndStatusHint(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	group := f.ns + ".test.opkit.dev"
	crd := widgetCRD(group)
	// The instance has no namespace: the CRD in the same set says it is
	// namespaced, so it gets the default one.
	mine := widget(group, "", "mine", map[string]string{key(apply.AnnotationStatusHint): "conditions=Synced"})

	// The instance waits for its type to be established, then for the
	// condition its status hint names.
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (inventory.Phase, bool, error) {
		_, err := f.r.Apply(ctx, &f.inv, []client.Object{mine, crd}, f.pass())
		it := f.find(schemaGK(group, "Widget"), f.ns, "mine")
		if it == nil {
			return "", false, err
		}
		return it.Phase, it.Phase == inventory.PhaseUpdating || it.Phase == inventory.PhaseCreating, err
	}, time.Minute)
	require.NoError(t, err)
	res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{mine, crd}, f.pass())
	require.NoError(t, err)
	require.False(t, res.Done, "ready although the Synced condition is missing")

	live := widget(group, f.ns, "mine", nil)
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(live), live))
	require.NoError(t, unstructured.SetNestedSlice(live.Object, []any{map[string]any{"type": "Synced", "status": "True"}}, "status", "conditions"))
	require.NoError(t, f.c.Status().Update(t.Context(), live))
	f.applyUntilReady(mine, crd)

	liveCRD := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(crd), liveCRD))
	require.Contains(t, liveCRD.Finalizers, name, "managed CRD without the engine's finalizer")

	allowed, _, err := f.r.IsDeletionAllowed(t.Context(), &f.inv)
	require.NoError(t, err)
	require.True(t, allowed, "own instances must not block deletion")

	foreign := widget(group, f.ns, "foreign", nil)
	require.NoError(t, f.c.Create(t.Context(), foreign))
	allowed, reason, err := f.r.IsDeletionAllowed(t.Context(), &f.inv)
	require.NoError(t, err)
	require.False(t, allowed)
	require.Contains(t, reason, "Widget."+group+" "+f.ns+"/foreign")

	// Delete removes our instance, then waits for the foreign one before
	// deleting the type.
	done, err := f.r.Delete(t.Context(), &f.inv, f.pass())
	require.NoError(t, err)
	require.False(t, done.Done)
	_, err = f.r.Delete(t.Context(), &f.inv, f.pass())
	require.NoError(t, err)
	require.False(t, exists(t, f, widget(group, f.ns, "mine", nil)), "own instance not deleted first")
	require.True(t, exists(t, f, crd), "type deleted while a foreign instance exists")

	require.NoError(t, f.c.Delete(t.Context(), foreign))
	f.deleteUntilDone()
}

func TestAdditionalManagedTypesBlockDeletion(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	group := f.ns + ".extra.opkit.dev"
	crd := widgetCRD(group)
	require.NoError(t, f.c.Create(t.Context(), crd))
	t.Cleanup(func() { _ = f.c.Delete(context.Background(), crd) })
	foreign := widget(group, f.ns, "foreign", nil)
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := f.c.Create(ctx, foreign.DeepCopy())
		return "created", err == nil, err
	}, time.Minute)
	require.NoError(t, err)

	disco, err := discovery.NewDiscoveryClientForConfig(env.Require(t).Config)
	require.NoError(t, err)
	tests := []struct {
		name        string
		types       []apply.TypeInfo
		discovery   discovery.DiscoveryInterface
		wantAllowed bool
	}{
		{name: "named kind", types: []apply.TypeInfo{{Group: group, Kind: "Widget"}}, wantAllowed: false},
		{name: "all kinds with discovery", types: []apply.TypeInfo{{Group: group, Version: "v1", Kind: "*"}}, discovery: disco, wantAllowed: false},
		{name: "all kinds without discovery", types: []apply.TypeInfo{{Group: group, Version: "v1", Kind: "*"}}, wantAllowed: true},
		{name: "unrelated type", types: []apply.TypeInfo{{Group: "other.opkit.dev", Kind: "Widget"}}, wantAllowed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := apply.New(name, f.c, apply.Options{AdditionalManagedTypes: tt.types, Discovery: tt.discovery})
			require.NoError(t, err)
			allowed, _, err := r.IsDeletionAllowed(t.Context(), &inventory.Inventory{})
			require.NoError(t, err)
			require.Equal(t, tt.wantAllowed, allowed)
		})
	}
}
