package servertest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// env is the control plane the generated operators are deployed to: with
// controllers, the scheduler and kwok nodes, so that their Deployments and
// the product's StatefulSets get pods that become ready. It starts when
// the first project is deployed, after the projects' own tests, which
// start their own.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true}}

func TestMain(m *testing.M) { env.Main(m) }

// assetsDir returns the control-plane binaries a generated project's
// tests need (the product's start controllers and kwok nodes). When they
// are missing the test is skipped, or fails with CI set, as every testkit
// test does.
func assetsDir(t *testing.T) string {
	t.Helper()
	dir, err := controlplane.AssetsDir()
	if err == nil {
		err = controlplane.Options{AssetsDir: dir, Controllers: true}.CheckAssets()
	}
	if err != nil {
		if controlplane.IsAssetsError(err) && !testkit.InCI() {
			t.Skipf("no control plane for the generated projects' tests: %v", err)
		}
		t.Fatalf("no control plane for the generated projects' tests: %v", err)
	}
	return dir
}

// repositoryRoot finds the checkout of opkit the test runs in: the
// nearest directory above the working directory holding go.work and
// hack/deps.txt.
func repositoryRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if isFile(filepath.Join(dir, "go.work")) && isFile(filepath.Join(dir, "hack", "deps.txt")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("the test does not run in a checkout of opkit")
		}
		dir = parent
	}
}

func isFile(name string) bool {
	info, err := os.Stat(name)
	return err == nil && info.Mode().IsRegular()
}
