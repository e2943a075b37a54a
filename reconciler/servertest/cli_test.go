package servertest_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/reconciler/cli"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// cliRun runs one command of a new product reconciler's command line
// against rc and returns its exit code, output and errors, and the writes
// it sent.
func cliRun(t *testing.T, rc *rest.Config, ns string, args ...string) (int, string, string, []apicount.Write) {
	t.Helper()
	writes := apicount.NewWriteLog()
	rc = rest.CopyConfig(rc)
	rc.Wrap(writes.WrapTransport)
	cfg := baseConfig()
	cfg.Namespaces = []string{ns}
	r, err := reconciler.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := cli.ForProduct(r, cli.Options{Name: "sample", Scheme: testScheme(), RESTConfig: rc, Stdout: &stdout, Stderr: &stderr}).
		Run(t.Context(), args)
	return code, stdout.String(), stderr.String(), writes.Writes()
}

// writeFile writes cr as a user's YAML file would hold it: apiVersion,
// kind, metadata.name and the spec.
func writeFile(t *testing.T, cr *sampleCluster) string {
	t.Helper()
	doc := map[string]any{
		"apiVersion": samplev1alpha1.GroupVersion.String(), "kind": "SampleCluster",
		"metadata": map[string]any{"name": cr.Name, "namespace": cr.Namespace},
		"spec":     cr.Spec,
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// uids are the UIDs of owner references: the live resource's, or the one a
// rendering of a resource not created yet stands in with.
var uids = regexp.MustCompile(`uid: [0-9a-f-]{36}`)

func withoutUIDs(s string) string { return uids.ReplaceAllString(s, "uid: UID") }

// requireNoWrite fails when any write but a dry run (or, with none set,
// any write at all) was sent.
func requireNoWrite(t *testing.T, writes []apicount.Write, dryRunAllowed bool) {
	t.Helper()
	for _, w := range writes {
		if w.Resource == "selfsubjectaccessreviews" {
			continue // asks, changes nothing
		}
		if !dryRunAllowed || w.DryRun != "All" {
			t.Errorf("the command sent a %s of %s %s (dryRun %q)", w.Verb, w.Resource, w.Name, w.DryRun)
		}
	}
}

// The command line an operator's main mounts plans a converged cluster
// to no change (exit 0) and a scaled role group to one StatefulSet update
// shown as a diff of spec.replicas (exit 1, and the same in JSON); it
// renders the objects without any write, not even a dry run; it shows the
// status; and it sends nothing but dry runs throughout.
func TestCommandLinePlansRendersAndShows(t *testing.T) {
	cr := newCluster("", "cli", map[string]map[string]int32{"server": {"a": 1}})
	f := newPlanProof(t, baseConfig(), cr)
	f.create(cr)
	rc := env.Require(t).RESTConfig()
	ns := f.key.Namespace

	code, out, errs, writes := cliRun(t, rc, ns, "plan", "-f", writeFile(t, f.live()))
	if code != cli.ExitNoChanges {
		t.Fatalf("plan of the converged cluster exited %d:\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "no changes") {
		t.Errorf("plan of the converged cluster does not say so:\n%s", out)
	}
	requireNoWrite(t, writes, true)

	scaled := f.live()
	setReplicas(scaled, "server", "a", 3)
	file := writeFile(t, scaled)
	code, out, errs, writes = cliRun(t, rc, ns, "plan", "-f", file)
	if code != cli.ExitChanges {
		t.Fatalf("plan of the scaled cluster exited %d:\n%s%s", code, out, errs)
	}
	t.Logf("plan of the scaled cluster:\n%s", out)
	for _, want := range []string{
		"# update StatefulSet.apps " + ns + "/cli-server-a (server/a)",
		"--- live/apps.v1.StatefulSet." + ns + ".cli-server-a",
		"+++ planned/apps.v1.StatefulSet." + ns + ".cli-server-a",
		"-  replicas: 1", "+  replicas: 3",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	requireNoWrite(t, writes, true)

	code, out, errs, _ = cliRun(t, rc, ns, "plan", "-f", file, "-o", "json")
	if code != cli.ExitChanges {
		t.Fatalf("plan -o json exited %d:\n%s", code, errs)
	}
	var plans struct {
		Complete  bool
		Resources []struct {
			Changes []struct {
				Kind, Name, Action string
				Fields             []struct{ Path, Change string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &plans); err != nil {
		t.Fatalf("plan -o json is not JSON: %v\n%s", err, out)
	}
	var changed []string
	for _, r := range plans.Resources {
		for _, c := range r.Changes {
			if c.Action != "unchanged" {
				for _, fc := range c.Fields {
					changed = append(changed, c.Action+" "+c.Kind+" "+c.Name+" "+fc.Path)
				}
			}
		}
	}
	if diff := cmp.Diff([]string{
		"update StatefulSet cli-server-a metadata.annotations[sample.opkit.dev/digest]", // the digest of the desired object
		"update StatefulSet cli-server-a spec.replicas",
	}, changed); diff != "" || !plans.Complete {
		t.Errorf("plan -o json (complete %v), changed fields (-want +got):\n%s", plans.Complete, diff)
	}

	code, out, errs, writes = cliRun(t, rc, ns, "template", "--cluster", "-f", file)
	if code != cli.ExitNoChanges {
		t.Fatalf("template exited %d:\n%s", code, errs)
	}
	requireNoWrite(t, writes, false)
	// Offline, against a cluster that does not answer, the file alone
	// renders to the same objects.
	code, offline, errs, _ := cliRun(t, &rest.Config{Host: "http://127.0.0.1:1"}, ns, "template", "-f", file)
	if code != cli.ExitNoChanges {
		t.Fatalf("template offline exited %d:\n%s", code, errs)
	}
	if diff := cmp.Diff(withoutUIDs(out), withoutUIDs(offline)); diff != "" {
		t.Errorf("template offline differs from template --cluster (-cluster +offline):\n%s", diff)
	}
	var sts struct {
		Kind string
		Spec struct{ Replicas int }
	}
	found := false
	for _, doc := range strings.Split(out, "\n---\n") {
		if err := yaml.Unmarshal([]byte(strings.TrimPrefix(doc, "---\n")), &sts); err != nil {
			t.Fatalf("template printed a document that is not YAML: %v\n%s", err, doc)
		}
		if sts.Kind == "StatefulSet" && strings.Contains(doc, "# Source: "+ns+"/cli server/a\n") {
			found = true
			if sts.Spec.Replicas != 3 {
				t.Errorf("the rendered StatefulSet has %d replicas, the file asks 3", sts.Spec.Replicas)
			}
		}
	}
	if !found {
		t.Errorf("template printed no StatefulSet of server/a:\n%s", out)
	}

	code, out, errs, writes = cliRun(t, rc, ns, "status", "-n", ns, "cli")
	if code != cli.ExitNoChanges {
		t.Fatalf("status exited %d:\n%s", code, errs)
	}
	requireNoWrite(t, writes, false)
	for _, want := range []string{"SampleCluster " + ns + "/cli", "ReconcileComplete", "StatefulSet.apps cli-server-a"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
}

// A resource that does not exist is named in status's error, and a user
// who may read nothing is told, before any plan, every read a pass needs
// (verb, resource, namespace); both exit 2 with nothing printed as output.
func TestCommandLineNamesWhatIsMissing(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	code, out, errs, _ := cliRun(t, cp.RESTConfig(), ns, "status", "-n", ns, "absent")
	if want := "SampleCluster " + ns + "/absent not found"; code != cli.ExitError || out != "" || !strings.Contains(errs, want) {
		t.Errorf("status of an absent resource: exit %d, output %q, errors %q; want 2, none and %q", code, out, errs, want)
	}

	file := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(file, []byte("apiVersion: sample.opkit.dev/v1alpha1\nkind: SampleCluster\nmetadata: {name: x}\nspec: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rc := cp.RESTConfig()
	rc.Impersonate = rest.ImpersonationConfig{UserName: "nobody-" + ns}
	code, out, errs, writes := cliRun(t, rc, ns, "plan", "-n", ns, "-f", file)
	for _, want := range []string{"lacks rights a pass needs to read", "get samplecluster",
		"list statefulsets.apps in namespace " + ns, "watch pods in namespace " + ns} {
		if !strings.Contains(errs, want) {
			t.Errorf("the error of a user without rights lacks %q: %s", want, errs)
		}
	}
	if code != cli.ExitError || out != "" {
		t.Errorf("a user without rights: exit %d, output %q; want 2 and none", code, out)
	}
	requireNoWrite(t, writes, false)
}
