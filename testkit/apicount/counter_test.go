package apicount_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

var env = &testkit.Env{}

func TestMain(m *testing.M) { env.Main(m) }

// sequence performs one create, get, list, update, patch and delete of a
// ConfigMap.
func sequence(t *testing.T, c client.Client, ns, name string) {
	t.Helper()
	ctx := t.Context()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	require.NoError(t, c.Create(ctx, cm))
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(cm), cm))
	require.NoError(t, c.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns)))
	cm.Data = map[string]string{"a": "1"}
	require.NoError(t, c.Update(ctx, cm))
	require.NoError(t, c.Patch(ctx, cm, client.RawPatch(types.MergePatchType, []byte(`{"data":{"b":"2"}}`))))
	require.NoError(t, c.Delete(ctx, cm))
}

func TestCountsExactlyTheRequestsMade(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	counter := apicount.New()
	cfg := cp.RESTConfig()
	cfg.Wrap(counter.WrapTransport)
	c, err := client.New(cfg, client.Options{Scheme: cp.Client.Scheme()})
	require.NoError(t, err)

	// The first pass may also discover the API (the client's REST mapper
	// is lazy); the resource requests are exact all the same.
	sequence(t, c, ns, "first")
	want := apicount.Snapshot{
		{Verb: "create", Resource: "configmaps"}: 1,
		{Verb: "get", Resource: "configmaps"}:    1,
		{Verb: "list", Resource: "configmaps"}:   1,
		{Verb: "update", Resource: "configmaps"}: 1,
		{Verb: "patch", Resource: "configmaps"}:  1,
		{Verb: "delete", Resource: "configmaps"}: 1,
	}
	first := counter.Snapshot()
	resources := apicount.Snapshot{}
	for k, v := range first {
		if k.Resource == "configmaps" {
			resources[k] = v
		}
	}
	if diff := cmp.Diff(want, resources); diff != "" {
		t.Fatalf("first pass (-want +got):\n%s\nall:\n%s", diff, first)
	}

	// The second pass is warm: its delta is exactly the six requests.
	sequence(t, c, ns, "second")
	delta := counter.Snapshot().Sub(first)
	if diff := cmp.Diff(want, delta); diff != "" {
		t.Errorf("second pass delta (-want +got):\n%s", diff)
	}
	require.Equal(t, 4, delta.Writes())
	require.Equal(t, 2, delta.Reads())
	require.Equal(t, 6, delta.Total())
	require.Equal(t, 1, delta.Verb("patch"))
}

func TestSnapshotArithmetic(t *testing.T) {
	get := apicount.Key{Verb: "get", Resource: "pods"}
	create := apicount.Key{Verb: "create", Resource: "pods"}
	discovery := apicount.Key{Verb: "get", Resource: "/apis"}
	before := apicount.Snapshot{get: 2, discovery: 1}
	after := apicount.Snapshot{get: 5, create: 1, discovery: 1}

	delta := after.Sub(before)
	require.Equal(t, apicount.Snapshot{get: 3, create: 1}, delta)
	require.Equal(t, 1, delta.Writes())
	require.Equal(t, 3, delta.Reads())
	require.Equal(t, 5, after.Reads(), "discovery is not a resource read")
	require.Equal(t, "create pods: 1\nget /apis: 1\nget pods: 5\n", after.String())
}
