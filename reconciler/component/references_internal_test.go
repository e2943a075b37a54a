package component

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
)

type dataSource struct {
	Secret *componentv1alpha1.SecretReference `json:"secret,omitempty"`
}

type testSpec struct {
	componentv1alpha1.ClientSpec `json:",inline"`

	Password componentv1alpha1.SecretKeyReference            `json:"password"`
	Settings *componentv1alpha1.ConfigMapReference           `json:"settings,omitempty" opkit:"notFound=ignore"`
	Unset    *componentv1alpha1.ConfigMapKeyReference        `json:"unset,omitempty"`
	Empty    componentv1alpha1.ConfigMapKeyReference         `json:"empty"`
	Sources  []dataSource                                    `json:"sources,omitempty"`
	ByName   map[string]componentv1alpha1.SecretKeyReference `json:"byName,omitempty"`
	Nested   struct {
		Inner *componentv1alpha1.ConfigMapKeyReference `json:"inner,omitempty"`
	} `json:"nested" opkit:"notFound=fail"`
	Custom *customRef `json:"custom,omitempty"`
	Plain  string     `json:"plain"`
}

type customRef struct {
	Target string `json:"target"`
	loaded string `json:"-"`
}

func (c *customRef) Load(_ context.Context, _ client.Reader, namespace string) error {
	c.loaded = namespace + "/" + c.Target
	return nil
}

func (c *customRef) Digest() string { return c.loaded }

func fullSpec() *testSpec {
	s := &testSpec{
		Password: componentv1alpha1.SecretKeyReference{Name: "db", Key: "password"},
		Settings: &componentv1alpha1.ConfigMapReference{Name: "settings"},
		Sources:  []dataSource{{}, {Secret: &componentv1alpha1.SecretReference{Name: "s1"}}},
		ByName:   map[string]componentv1alpha1.SecretKeyReference{"b": {Name: "kb", Key: "k"}, "a": {Name: "ka", Key: "k"}},
		Custom:   &customRef{Target: "thing"},
		Plain:    "text",
	}
	s.KubeConfig = &componentv1alpha1.KubeConfigSpec{SecretRef: componentv1alpha1.SecretKeyReference{Name: "remote", Key: "value"}}
	s.Nested.Inner = &componentv1alpha1.ConfigMapKeyReference{Name: "inner", Key: "k"}
	return s
}

// The walk finds every set reference, in field order, with the path the
// user writes and the policy of its tag (inherited by nested fields).
func TestFindReferences(t *testing.T) {
	refs, _, err := findReferences(fullSpec(), "spec")
	if err != nil {
		t.Fatal(err)
	}
	type found struct {
		Field, Policy, Kind, Name string
	}
	var got []found
	for _, f := range refs {
		kind, name := "Custom", ""
		if f.ref != nil {
			kind, name = f.ref.Referenced().Kind, f.ref.Referenced().Name
		}
		got = append(got, found{f.field, string(f.policy), kind, name})
	}
	want := []found{
		{"spec.kubeConfig.secretRef", "fail", "Secret", "remote"},
		{"spec.password", "ignoreOnDeletion", "Secret", "db"},
		{"spec.settings", "ignore", "ConfigMap", "settings"},
		{"spec.sources[1].secret", "ignoreOnDeletion", "Secret", "s1"},
		{"spec.byName.a", "ignoreOnDeletion", "Secret", "ka"},
		{"spec.byName.b", "ignoreOnDeletion", "Secret", "kb"},
		{"spec.nested.inner", "fail", "ConfigMap", "inner"},
		{"spec.custom", "ignoreOnDeletion", "Custom", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
}

// Loaded data lands in the spec (map values included, once committed) and
// in the parameters beside each reference's own fields.
func TestLoadedReferencesReachSpecAndParameters(t *testing.T) {
	spec := fullSpec()
	refs, commit, err := findReferences(spec, "spec")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range refs {
		if f.ref != nil {
			o := f.ref.Referenced()
			f.ref.Load(map[string][]byte{o.Key: []byte(o.Name + "-data"), "k": []byte(o.Name + "-k")}, true)
		}
	}
	commit()
	if a := spec.ByName["a"]; string(a.Value()) != "ka-k" {
		t.Errorf("map value reference holds %q after commit, want ka-k", a.Value())
	}
	if got := string(spec.GetKubeConfig()); got != "remote-data" {
		t.Errorf("kubeconfig %q, want remote-data", got)
	}
	params, err := runtime.DefaultUnstructuredConverter.ToUnstructured(spec)
	if err != nil {
		t.Fatal(err)
	}
	inject(params, refs)
	want := map[string]any{
		"kubeConfig": map[string]any{"secretRef": map[string]any{"name": "remote", "key": "value", "value": "remote-data"}},
		"password":   map[string]any{"name": "db", "key": "password", "value": "db-data"},
		"settings":   map[string]any{"name": "settings", "data": map[string]any{"": "settings-data", "k": "settings-k"}},
		"empty":      map[string]any{"name": "", "key": ""},
		"sources":    []any{map[string]any{}, map[string]any{"secret": map[string]any{"name": "s1", "data": map[string]any{"": "s1-data", "k": "s1-k"}}}},
		"byName": map[string]any{
			"a": map[string]any{"name": "ka", "key": "k", "value": "ka-k"},
			"b": map[string]any{"name": "kb", "key": "k", "value": "kb-k"},
		},
		"nested": map[string]any{"inner": map[string]any{"name": "inner", "key": "k", "value": "inner-k"}},
		"custom": map[string]any{"target": "thing"},
		"plain":  "text",
	}
	if diff := cmp.Diff(want, params); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
}

func TestUnknownNotFoundPolicyIsTheOperatorsMistake(t *testing.T) {
	type bad struct {
		Ref *componentv1alpha1.SecretReference `json:"ref" opkit:"notFound=maybe"`
	}
	_, _, err := findReferences(&bad{Ref: &componentv1alpha1.SecretReference{Name: "x"}}, "spec")
	if err == nil || !strings.Contains(err.Error(), `unknown notFound policy "maybe"`) {
		t.Errorf("error %v, want the unknown policy named", err)
	}
}

func TestDigestCoversTheEffectiveInput(t *testing.T) {
	base := func() (map[string]string, map[string]any, string) {
		return map[string]string{"a": "1"}, map[string]any{"x": map[string]any{"value": "s3cr3t"}, "y": []any{1, 2}}, "chart-v1"
	}
	a, p, f := base()
	d0, err := componentDigest(a, p, nil, f)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(map[string]string, map[string]any, *[]string, *string)
		same   bool
	}{
		{"nothing", func(map[string]string, map[string]any, *[]string, *string) {}, true},
		{"input annotation", func(a map[string]string, _ map[string]any, _ *[]string, _ *string) { a["b"] = "2" }, false},
		{"referenced data", func(_ map[string]string, p map[string]any, _ *[]string, _ *string) {
			p["x"] = map[string]any{"value": "changed"}
		}, false},
		{"custom reference", func(_ map[string]string, _ map[string]any, c *[]string, _ *string) { *c = []string{"spec.custom=v2"} }, false},
		{"new chart", func(_ map[string]string, _ map[string]any, _ *[]string, f *string) { *f = "chart-v2" }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, p, f := base()
			var c []string
			tt.change(a, p, &c, &f)
			d, err := componentDigest(a, p, c, f)
			if err != nil {
				t.Fatal(err)
			}
			if (d == d0) != tt.same {
				t.Errorf("digest %s vs %s: same = %v, want %v", d, d0, d == d0, tt.same)
			}
		})
	}
}

// Only annotations under the reconciler's name are inputs.
func TestInputAnnotations(t *testing.T) {
	r := &Reconciler[Component]{name: "notes.example.com"}
	n := &metav1.PartialObjectMetadata{}
	n.SetAnnotations(map[string]string{"notes.example.com/tier": "gold", "kubectl.kubernetes.io/last-applied-configuration": "{}", "team": "a"})
	got := r.inputAnnotations(n)
	if diff := cmp.Diff(map[string]string{"notes.example.com/tier": "gold"}, got); diff != "" {
		t.Errorf("input annotations (-want +got):\n%s", diff)
	}
}
