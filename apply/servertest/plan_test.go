package servertest

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// planFixture is a fixture whose client's writes are recorded.
type planFixture struct {
	*fixture
	writes *apicount.WriteLog
}

func newPlanFixture(t *testing.T, opts apply.Options) *planFixture {
	t.Helper()
	f := newFixture(t, "owner-a", opts)
	// An owner of its own: a plan with Options.Kinds would otherwise
	// find the objects other tests left under the shared owner.
	f.owner.ID = "plan-" + f.ns
	writes := apicount.NewWriteLog()
	cfg := rest.CopyConfig(env.Require(t).Config)
	cfg.Wrap(writes.WrapTransport)
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: f.c.Scheme()})
	require.NoError(t, err)
	r, err := apply.New(name, c, opts)
	require.NoError(t, err)
	f.c, f.r = c, r
	return &planFixture{fixture: f, writes: writes}
}

// plan runs a plan of objects and requires that it sent dry runs only.
func (f *planFixture) plan(objects ...client.Object) apply.Plan {
	f.t.Helper()
	f.writes.Reset()
	plan, err := f.r.Plan(f.t.Context(), &f.inv, objects, f.pass())
	require.NoError(f.t, err)
	for _, w := range f.writes.Writes() {
		require.Equal(f.t, "All", w.DryRun, "a plan sent a real %s of %s %s", w.Verb, w.Resource, w.Name)
	}
	return plan
}

// realWrites returns the writes recorded since the last reset, by
// "<resource> <name>", each its verbs in order.
func (f *planFixture) realWrites() map[string][]string {
	out := map[string][]string{}
	for _, w := range f.writes.Writes() {
		require.Empty(f.t, w.DryRun)
		k := w.Resource + " " + w.Name
		out[k] = append(out[k], w.Verb)
	}
	return out
}

// body returns the answer to the last real write of resource/name.
func (f *planFixture) body(resource, objName string) *unstructured.Unstructured {
	f.t.Helper()
	var last []byte
	for _, w := range f.writes.Writes() {
		if w.Resource == resource && w.Name == objName && w.DryRun == "" && w.Body != nil {
			last = w.Body
		}
	}
	require.NotNil(f.t, last, "no write of %s %s", resource, objName)
	u := &unstructured.Unstructured{}
	require.NoError(f.t, json.Unmarshal(last, &u.Object))
	return u
}

func byName(plan apply.Plan) map[string]apply.PlannedChange {
	out := map[string]apply.PlannedChange{}
	for _, c := range plan.Changes {
		out[c.Object.Kind+" "+c.Object.Name] = c
	}
	return out
}

func secret(ns, objName, password string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: objName}, StringData: map[string]string{"password": password}}
}

// The plan names, per object, what the passes that follow then do: the
// same objects, the same actions, the same changed fields, and the server's
// defaults in what a create leaves; the plan itself writes nothing.
func TestPlanTellsWhatThePassesThenWrite(t *testing.T) {
	f := newPlanFixture(t, apply.Options{Kinds: []schema.GroupVersionKind{configMapKind}})
	orphan := map[string]string{key(apply.AnnotationDeletePolicy): string(apply.DeletePolicyOrphan)}
	f.applyUntilReady(configMap(f.ns, "same", map[string]string{"a": "1"}, nil), configMap(f.ns, "edit", map[string]string{"a": "1"}, nil),
		configMap(f.ns, "gone", nil, nil), configMap(f.ns, "kept", nil, orphan), secret(f.ns, "creds", "old-password"))
	next := []client.Object{
		configMap(f.ns, "same", map[string]string{"a": "1"}, nil), configMap(f.ns, "edit", map[string]string{"a": "2", "b": "3"}, nil),
		secret(f.ns, "creds", "new-password"), configMap(f.ns, "fresh", nil, nil), deployment(f.ns, "web", nil),
	}
	plan := f.plan(next...)
	got := map[string]apply.PlanAction{}
	for k, c := range byName(plan) {
		got[k] = c.Action
		require.NoError(t, c.Err)
	}
	want := map[string]apply.PlanAction{"ConfigMap same": apply.PlanUnchanged, "ConfigMap edit": apply.PlanUpdate,
		"Secret creds": apply.PlanUpdate, "ConfigMap fresh": apply.PlanCreate, "Deployment web": apply.PlanCreate,
		"ConfigMap gone": apply.PlanDelete, "ConfigMap kept": apply.PlanOrphan}
	require.Empty(t, cmp.Diff(want, got), "plan actions (-want +got)")
	requireNormalised(t, byName(plan)["ConfigMap edit"].Live, byName(plan)["ConfigMap edit"].Desired)
	live := map[string]*unstructured.Unstructured{}
	for _, k := range []string{"edit", "creds"} {
		live[k] = readUnstructured(t, f, k)
	}

	f.writes.Reset()
	f.applyUntilReady(next...)
	wantWrites := map[string][]string{"configmaps edit": {"update"}, "secrets creds": {"update"}, "configmaps fresh": {"create"},
		"deployments web": {"create"}, "configmaps gone": {"delete"}, "configmaps kept": {"patch"}}
	require.Empty(t, cmp.Diff(wantWrites, f.realWrites()), "real writes (-want +got)")
	planned := byName(plan)
	for kind, k := range map[string]string{"configmaps": "edit", "secrets": "creds"} {
		written := apply.DiffFields(live[k], f.body(kind, k))
		require.Empty(t, cmp.Diff(written, planned[map[string]string{"configmaps": "ConfigMap", "secrets": "Secret"}[kind]+" "+k].Fields), "fields of %s (-written +planned)", k)
	}
	web := planned["Deployment web"]
	require.True(t, web.Verified)
	require.Empty(t, apply.DiffFields(f.body("deployments", "web"), web.Desired), "the planned create differs from the real one")
	policy, _, _ := unstructured.NestedString(web.Desired.Object, "spec", "template", "spec", "restartPolicy")
	require.Equal(t, "Always", policy, "the server's defaults are not in the planned object")
}

// readUnstructured reads a ConfigMap or Secret of the fixture's namespace.
func readUnstructured(t *testing.T, f *planFixture, objName string) *unstructured.Unstructured {
	t.Helper()
	for _, kind := range []string{"ConfigMap", "Secret"} {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(kind))
		if err := f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: objName}, u); err == nil {
			return u
		}
	}
	t.Fatalf("no ConfigMap or Secret %s", objName)
	return nil
}

// A Secret's plan says which keys change, never their values.
func TestPlanMasksSecretData(t *testing.T) {
	f := newPlanFixture(t, apply.Options{})
	f.applyUntilReady(secret(f.ns, "creds", "old-password"))
	plan := f.plan(secret(f.ns, "creds", "new-password"))
	c := byName(plan)["Secret creds"]
	require.Equal(t, apply.PlanUpdate, c.Action)
	require.Equal(t, []apply.FieldChange{{Path: "data.password", Change: apply.FieldChanged}}, withoutBookkeeping(c.Fields))
	require.Equal(t, apply.MaskBefore, c.Live.Object["data"].(map[string]any)["password"])
	require.Equal(t, apply.MaskAfter, c.Desired.Object["data"].(map[string]any)["password"])
	shown, err := json.Marshal(plan)
	require.NoError(t, err)
	for _, v := range []string{"old-password", "new-password"} {
		require.NotContains(t, string(shown), base64.StdEncoding.EncodeToString([]byte(v)))
		require.NotContains(t, string(shown), v)
	}
}

// withoutBookkeeping drops the engine's own annotations from fields.
func withoutBookkeeping(fields []apply.FieldChange) []apply.FieldChange {
	var out []apply.FieldChange
	for _, f := range fields {
		if f.Path != "metadata.annotations["+key(apply.AnnotationDigest)+"]" {
			out = append(out, f)
		}
	}
	return out
}

// A converged set plans to no change, and costs no dry run.
func TestPlanOfAConvergedSetSendsNoWrite(t *testing.T) {
	f := newPlanFixture(t, apply.Options{})
	objects := []client.Object{configMap(f.ns, "a", map[string]string{"k": "v"}, nil), secret(f.ns, "s", "p"), statefulSet(f.ns, "db", "")}
	f.applyUntilReady(objects...)
	plan := f.plan(objects...)
	require.False(t, plan.HasChanges(), "%+v", plan.Changes)
	require.Empty(t, f.writes.Writes())
}

// requireNormalised requires that the objects a plan shows carry none of
// the server's bookkeeping.
func requireNormalised(t *testing.T, objects ...*unstructured.Unstructured) {
	t.Helper()
	for _, u := range objects {
		require.NotNil(t, u)
		for _, f := range []string{"managedFields", "resourceVersion", "uid", "creationTimestamp", "generation"} {
			_, found, _ := unstructured.NestedFieldNoCopy(u.Object, "metadata", f)
			require.False(t, found, "metadata.%s is shown in %s", f, u.GetName())
		}
		require.NotContains(t, u.Object, "status")
	}
}

// Objects leaving the set are planned in the order the passes delete
// them: by delete wave, whatever their names.
func TestPlanListsDeletesInTheOrderThePassDeletes(t *testing.T) {
	f := newPlanFixture(t, apply.Options{})
	order := func(n string) map[string]string { return map[string]string{key(apply.AnnotationDeleteOrder): n} }
	stays := configMap(f.ns, "stays", nil, nil)
	f.applyUntilReady(stays, configMap(f.ns, "a-last", nil, order("2")), configMap(f.ns, "m-second", nil, order("1")),
		configMap(f.ns, "z-first", nil, order("-1")), configMap(f.ns, "b-default", nil, nil))
	var planned []string
	for _, c := range f.plan(stays).Changes {
		if c.Action == apply.PlanDelete {
			planned = append(planned, c.Object.Name)
		}
	}
	f.writes.Reset()
	f.applyUntilReady(stays)
	var deleted []string
	for _, w := range f.writes.Writes() {
		if w.Verb == "delete" {
			deleted = append(deleted, w.Name)
		}
	}
	require.Equal(t, []string{"z-first", "b-default", "m-second", "a-last"}, deleted, "the pass's deletes")
	require.Empty(t, cmp.Diff(deleted, planned), "planned deletes (-written +planned)")
}
