package deploy_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/examples/internal/manifest"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// checkCommandLine runs the operator's binary as its users' command line
// (package reconciler/cli), with the administrator's kubeconfig, on the
// converged sample in ns: plan finds no change (exit 0), template prints
// the sample's objects, status its conditions and objects. Offline, with
// no kubeconfig to read, template renders the sample files alone to the
// same objects, and without the file of what the sample references it
// fails naming what is missing.
func checkCommandLine(t *testing.T, cp *controlplane.ControlPlane, bin string, ex example, ns string) {
	t.Helper()
	file := ex.files[len(ex.files)-1]
	objs, err := manifest.Objects(ex.samples, file)
	if err != nil || len(objs) != 1 {
		t.Fatalf("the sample %s holds %d objects (%v), want 1", file, len(objs), err)
	}
	path := func(f string) string { return filepath.Join("..", ex.name, "samples", f) }
	// run runs the binary with args; nil env means the test's environment.
	run := func(env []string, args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			return exit.ExitCode(), stdout.String(), stderr.String()
		case err != nil:
			t.Fatalf("%s %s: %v", ex.name, args[0], err)
		}
		return 0, stdout.String(), stderr.String()
	}
	live := []string{"--kubeconfig", cp.KubeconfigPath, "-n", ns}
	if code, out, errs := run(nil, append([]string{"plan", "-f", path(file)}, live...)...); code != 0 || !strings.Contains(out, "no changes") {
		t.Errorf("%s plan of the converged sample: exit %d, want 0 and no changes:\n%s%s", ex.name, code, out, errs)
	}
	code, rendered, errs := run(nil, append([]string{"template", "--cluster", "-f", path(file)}, live...)...)
	if code != 0 || !strings.Contains(rendered, "# Source: "+ns+"/"+objs[0].GetName()) {
		t.Errorf("%s template of the sample: exit %d, want 0 and the sample's objects:\n%s%s", ex.name, code, rendered, errs)
	}
	if code, out, errs := run(nil, append([]string{"status", objs[0].GetName()}, live...)...); code != 0 || !strings.Contains(out, ex.kind+" "+ns+"/"+objs[0].GetName()) {
		t.Errorf("%s status of the sample: exit %d:\n%s%s", ex.name, code, out, errs)
	}

	// Offline: a kubeconfig that does not exist is never read.
	offline := []string{"KUBECONFIG=" + filepath.Join(t.TempDir(), "none"), "HOME=" + t.TempDir()}
	args := []string{"template", "-n", ns}
	for _, f := range ex.files {
		args = append(args, "-f", path(f))
	}
	code, out, errs := run(offline, args...)
	if code != 0 {
		t.Errorf("%s template offline: exit %d, want 0:\n%s", ex.name, code, errs)
	}
	if diff := cmp.Diff(withoutUIDs(rendered), withoutUIDs(out)); diff != "" {
		t.Errorf("%s template offline differs from the rendering of the converged sample (-cluster +offline):\n%s", ex.name, diff)
	}
	code, out, errs = run(offline, "template", "-n", ns, "-f", path(file))
	if code != 2 || out != "" || !strings.Contains(errs, ex.missing) {
		t.Errorf("%s template offline without %s: exit %d, output %q, errors %q; want 2, none, and an error naming %q",
			ex.name, ex.files[0], code, out, errs, ex.missing)
	}
}

// uids are the UIDs of owner references: the live resource's, or the one a
// rendering of a resource not created yet stands in with.
var uids = regexp.MustCompile(`uid: [0-9a-f-]{36}`)

func withoutUIDs(s string) string { return uids.ReplaceAllString(s, "uid: UID") }
