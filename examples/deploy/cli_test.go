package deploy_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opkit-dev/opkit/examples/internal/manifest"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// checkCommandLine runs the operator's binary as its users' command line
// (package reconciler/cli), with the administrator's kubeconfig, on the
// converged sample in ns: plan finds no change (exit 0), template prints
// the sample's objects, status its conditions and objects.
func checkCommandLine(t *testing.T, cp *controlplane.ControlPlane, bin string, ex example, ns string) {
	t.Helper()
	file := ex.files[len(ex.files)-1]
	objs, err := manifest.Objects(ex.samples, file)
	if err != nil || len(objs) != 1 {
		t.Fatalf("the sample %s holds %d objects (%v), want 1", file, len(objs), err)
	}
	path := filepath.Join("..", ex.name, "samples", file)
	run := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), bin, append(args, "--kubeconfig", cp.KubeconfigPath, "-n", ns)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			return exit.ExitCode(), stdout.String() + stderr.String()
		case err != nil:
			t.Fatalf("%s %s: %v", ex.name, args[0], err)
		}
		return 0, stdout.String() + stderr.String()
	}
	if code, out := run("plan", "-f", path); code != 0 || !strings.Contains(out, "no changes") {
		t.Errorf("%s plan of the converged sample: exit %d, want 0 and no changes:\n%s", ex.name, code, out)
	}
	if code, out := run("template", "-f", path); code != 0 || !strings.Contains(out, "# Source: "+ns+"/"+objs[0].GetName()) {
		t.Errorf("%s template of the sample: exit %d, want 0 and the sample's objects:\n%s", ex.name, code, out)
	}
	if code, out := run("status", objs[0].GetName()); code != 0 || !strings.Contains(out, ex.kind+" "+ns+"/"+objs[0].GetName()) {
		t.Errorf("%s status of the sample: exit %d:\n%s", ex.name, code, out)
	}
}
