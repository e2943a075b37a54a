package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/reconciler/cli"
)

// testCluster is a product resource for the commands' input checks.
type testCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              commonsv1alpha1.ClusterSpec   `json:"spec,omitempty"`
	Status            commonsv1alpha1.ClusterStatus `json:"status,omitempty"`
}

func (c *testCluster) GetClusterSpec() *commonsv1alpha1.ClusterSpec     { return &c.Spec }
func (c *testCluster) GetClusterStatus() *commonsv1alpha1.ClusterStatus { return &c.Status }
func (c *testCluster) DeepCopyObject() runtime.Object                   { return c.DeepCopy() }
func (c *testCluster) DeepCopy() *testCluster {
	out := &testCluster{TypeMeta: c.TypeMeta, ObjectMeta: *c.ObjectMeta.DeepCopy()}
	c.Spec.DeepCopyInto(&out.Spec)
	c.Status.DeepCopyInto(&out.Status)
	return out
}

var gv = schema.GroupVersion{Group: "test.opkit.dev", Version: "v1"}

func scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypes(gv, &testCluster{})
	metav1.AddToGroupVersion(s, gv)
	return s
}

type noRoles struct{}

func (noRoles) DeclareRoles(context.Context, *testCluster) (reconciler.Catalog, error) {
	return nil, nil
}

// Every input the commands cannot use ends them with exit code 2 and an
// error naming the file, the document and the field, before any request
// is sent (the cluster named here does not exist).
func TestBadInputIsRefusedBeforeAnyRequest(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"typo.yaml":    "apiVersion: test.opkit.dev/v1\nkind: testCluster\nmetadata: {name: x}\nspec:\n  rolez: {}\n",
		"kind.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
		"second.yaml":  "apiVersion: test.opkit.dev/v1\nkind: testCluster\nmetadata: {name: x}\n---\n# the next one\n---\napiVersion: test.opkit.dev/v1\nkind: testCluster\nmetadata: {name: x2}\nspec: {roles: 3}\n",
		"noname.yaml":  "apiVersion: test.opkit.dev/v1\nkind: testCluster\nspec: {}\n",
		"ns.yaml":      "apiVersion: test.opkit.dev/v1\nkind: testCluster\nmetadata: {name: x, namespace: a}\n",
		"two.yaml":     "apiVersion: test.opkit.dev/v1\nkind: testCluster\nmetadata: {name: x, namespace: a}\n---\napiVersion: test.opkit.dev/v1\nkind: testCluster\nmetadata: {name: x2, namespace: b}\n",
		"empty.yaml":   "# nothing\n",
		"notyaml.yaml": "{[",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	file := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown field", []string{"plan", "-f", file("typo.yaml")}, `typo.yaml, document 1: strict decoding error: unknown field "spec.rolez"`},
		{"another kind", []string{"plan", "-f", file("kind.yaml")}, "kind.yaml, document 1: kind ConfigMap v1 is not the one this operator manages (testCluster test.opkit.dev/v1)"},
		{"a kind the operator does not know, offline", []string{"template", "-f", file("kind.yaml")}, "kind.yaml, document 1: kind ConfigMap v1 is not one this operator knows"},
		{"the second file", []string{"plan", "-f", file("ns.yaml"), "-f", file("typo.yaml")}, `typo.yaml, document 1: strict decoding error: unknown field "spec.rolez"`},
		{"wrong type in a later document", []string{"template", "-f", file("second.yaml")}, "second.yaml, document 2:"},
		{"no name", []string{"plan", "-f", file("noname.yaml")}, "noname.yaml, document 1: metadata.name is required"},
		{"namespace contradicted", []string{"plan", "-n", "b", "-f", file("ns.yaml")}, `metadata.namespace "a" contradicts --namespace "b"`},
		{"several namespaces", []string{"plan", "-f", file("two.yaml")}, "the resources are in 2 namespaces (a, b)"},
		{"no resource", []string{"plan", "-f", file("empty.yaml")}, "empty.yaml: holds no testCluster"},
		{"not YAML", []string{"plan", "-f", file("notyaml.yaml")}, "notyaml.yaml, document 1:"},
		{"missing file", []string{"plan", "-f", file("missing.yaml")}, "missing.yaml: open"},
		{"no file", []string{"plan"}, "plan: -f is required"},
		{"bad output", []string{"plan", "-f", file("ns.yaml"), "-o", "yaml"}, `-o "yaml": the output is text (no -o) or json`},
		{"unknown command", []string{"apply", "-f", file("ns.yaml")}, `unknown command "apply"`},
		{"status without a name", []string{"status"}, "status: name the resource"},
		{"template with an argument", []string{"template", "-f", file("ns.yaml"), "extra"}, `unexpected argument "extra"`},
		{"kubeconfig with a fixed cluster", []string{"status", "--kubeconfig", "k", "x"}, "--kubeconfig and --context are not accepted"},
		{"flags after the name", []string{"status", "x", "--context", "c"}, "--kubeconfig and --context are not accepted"},
		{"unknown flag", []string{"plan", "--dry"}, "flag provided but not defined: -dry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := reconciler.New(reconciler.Config[*testCluster]{Name: "test.opkit.dev", For: &testCluster{}, Roles: noRoles{}})
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := cli.ForProduct(r, cli.Options{Name: "op", Scheme: scheme(), Stdout: &stdout, Stderr: &stderr,
				RESTConfig: &rest.Config{Host: "http://127.0.0.1:1"}}).Run(t.Context(), tc.args)
			if code != cli.ExitError || !strings.Contains(stderr.String(), tc.want) || stdout.Len() > 0 {
				t.Errorf("exit %d, output %q, errors %q; want exit 2, no output and an error with %q", code, stdout.String(), stderr.String(), tc.want)
			}
		})
	}
}

// An offline template reads no kubeconfig, so naming one without
// --cluster is a mistake the command points out.
func TestOfflineTemplateRefusesAKubeconfig(t *testing.T) {
	r, err := reconciler.New(reconciler.Config[*testCluster]{Name: "test.opkit.dev", For: &testCluster{}, Roles: noRoles{}})
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := cli.ForProduct(r, cli.Options{Name: "op", Scheme: scheme(), Stdout: &stdout, Stderr: &stderr}).
		Run(t.Context(), []string{"template", "-f", "x.yaml", "--kubeconfig", "k"})
	if want := "--kubeconfig and --context need --cluster"; code != cli.ExitError || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, errors %q; want exit 2 and an error with %q", code, stderr.String(), want)
	}
}

// Handles tells main which arguments are the commands'.
func TestHandles(t *testing.T) {
	r, err := reconciler.New(reconciler.Config[*testCluster]{Name: "test.opkit.dev", For: &testCluster{}, Roles: noRoles{}})
	if err != nil {
		t.Fatal(err)
	}
	c := cli.ForProduct(r, cli.Options{Scheme: scheme()})
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false}, {[]string{"--leader-elect"}, false}, {[]string{"plan"}, true},
		{[]string{"template", "-f", "x"}, true}, {[]string{"status", "x"}, true}, {[]string{"apply"}, false},
	} {
		if got := c.Handles(tc.args); got != tc.want {
			t.Errorf("Handles(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
