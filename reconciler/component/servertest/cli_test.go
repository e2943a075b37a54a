package servertest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/reconciler/cli"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// The command line of a component operator plans a converged shop to no
// change (exit 0) and a scaled one to the writes its pass makes, as diffs
// (exit 1); it renders the shop's objects with no write at all and shows
// its state and inventory. Nothing but dry runs is sent.
func TestShopCommandLine(t *testing.T) {
	f := newShopPlanProof(t, shop.ShopSpec{Message: "welcome", Replicas: 1})
	newReconciler := func() *component.Reconciler[*shop.Shop] {
		t.Helper()
		r, err := component.New[*shop.Shop](f.op.name, shopGenerator(t), component.Options{Kinds: shopKinds, Namespaces: []string{f.key.Namespace}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	run := func(args ...string) (int, string, string, []apicount.Write) {
		t.Helper()
		writes := apicount.NewWriteLog()
		rc := env.Require(t).RESTConfig()
		rc.Wrap(writes.WrapTransport)
		var stdout, stderr bytes.Buffer
		code := cli.ForComponent(newReconciler(), cli.Options{Name: "shop", Scheme: testScheme(), RESTConfig: rc, Stdout: &stdout, Stderr: &stderr}).
			Run(t.Context(), args)
		for _, w := range writes.Writes() {
			if w.DryRun != "All" && w.Resource != "selfsubjectaccessreviews" {
				t.Errorf("%s sent a %s of %s %s", args[0], w.Verb, w.Resource, w.Name)
			}
		}
		return code, stdout.String(), stderr.String(), writes.Writes()
	}
	file := func(s *shop.Shop) string {
		t.Helper()
		b, err := yaml.Marshal(map[string]any{"apiVersion": shop.GroupVersion.String(), "kind": "Shop",
			"metadata": map[string]any{"name": s.Name}, "spec": s.Spec})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "shop.yaml")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ns := f.key.Namespace

	if code, out, errs, _ := run("plan", "-n", ns, "-f", file(f.live())); code != cli.ExitNoChanges || !strings.Contains(out, "no changes") {
		t.Errorf("plan of the converged shop: exit %d:\n%s%s", code, out, errs)
	}

	scaled := f.live()
	scaled.Spec.Replicas = 2
	code, out, errs, _ := run("plan", "-n", ns, "-f", file(scaled))
	if code != cli.ExitChanges {
		t.Fatalf("plan of the scaled shop: exit %d:\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"# update Deployment.apps " + ns + "/front-web",
		"# create ConfigMap " + ns + "/front-upgraded",
		"--- live/apps.v1.Deployment." + ns + ".front-web",
		"-  replicas: 1", "+  replicas: 2",
		"# the inputs changed: revision 2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}

	code, out, errs, writes := run("template", "--cluster", "-n", ns, "-f", file(scaled))
	if code != cli.ExitNoChanges {
		t.Fatalf("template: exit %d:\n%s", code, errs)
	}
	// Offline, against a cluster that does not answer, the file alone
	// renders a shop as the cluster renders a new one (an install, at
	// revision 1).
	fresh := scaled.DeepCopy()
	fresh.Name = "fresh"
	_, installed, errs, _ := run("template", "--cluster", "-n", ns, "-f", file(fresh))
	var offline, offErrs bytes.Buffer
	if code := cli.ForComponent(newReconciler(), cli.Options{Name: "shop", Scheme: testScheme(),
		RESTConfig: &rest.Config{Host: "http://127.0.0.1:1"}, Stdout: &offline, Stderr: &offErrs}).
		Run(t.Context(), []string{"template", "-n", ns, "-f", file(fresh)}); code != cli.ExitNoChanges {
		t.Fatalf("template offline: exit %d:\n%s", code, offErrs.String())
	}
	if diff := cmp.Diff(installed, offline.String()); diff != "" || !strings.Contains(installed, "name: fresh-web") {
		t.Errorf("template offline differs from template --cluster of a new shop (-cluster +offline):\n%s%s", diff, errs)
	}
	for _, w := range writes {
		if w.Resource != "selfsubjectaccessreviews" {
			t.Errorf("template sent a %s of %s %s (dry run %q)", w.Verb, w.Resource, w.Name, w.DryRun)
		}
	}
	if !strings.Contains(out, "kind: Deployment") || !strings.Contains(out, "replicas: 2") || !strings.Contains(out, "name: front-upgraded") {
		t.Errorf("template does not print the scaled shop's objects:\n%s", out)
	}

	code, out, errs, _ = run("status", "-n", ns, "front")
	if code != cli.ExitNoChanges {
		t.Fatalf("status: exit %d:\n%s", code, errs)
	}
	for _, want := range []string{"Shop " + ns + "/front", "state Ready, revision 1", "Deployment.apps front-web"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
}
