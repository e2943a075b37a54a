package servertest_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/opkit-dev/opkit/scaffold"
	"github.com/opkit-dev/opkit/testkit"
)

// project is a project the test generates, and what it expects of it.
type project struct {
	options scaffold.Options
	// plural is the resource name of the kind.
	plural string
	// test is the generated project's own test that must pass.
	test string
	// ownVerbs are the verbs config/rbac/role.yaml grants on the resource.
	ownVerbs []string
	// applied is the kind the reconciler applies, as a rule role.yaml must
	// hold.
	applied rbacv1.PolicyRule
}

var projects = []project{
	{
		options: scaffold.Options{Type: scaffold.Product, Name: "zookeeper-operator", Module: "example.com/zookeeper-operator",
			Group: "zookeeper.example.com", Kind: "ZookeeperCluster"},
		plural: "zookeeperclusters", test: "TestSampleBecomesAvailable",
		ownVerbs: []string{"get", "list", "watch"},
		applied:  rbacv1.PolicyRule{APIGroups: []string{"apps"}, Resources: []string{"statefulsets"}, Verbs: []string{"create", "delete", "get", "list", "update", "watch"}},
	},
	{
		options: scaffold.Options{Type: scaffold.Component, Name: "website-operator", Module: "example.com/website-operator",
			Group: "web.example.com", Version: "v1beta1", Kind: "Website"},
		plural: "websites", test: "TestSampleIsRenderedUpdatedAndDeleted",
		ownVerbs: []string{"get", "list", "patch", "watch"},
		applied:  rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"create", "delete", "get", "list", "update", "watch"}},
	},
}

// Each type of project, generated from this checkout, is complete as it
// comes: its Makefile regenerates exactly what the scaffold generated
// (deep copies, CRD, RBAC), its RBAC grants the reconciler's rights on the
// resource and on what it applies, and its own test passes against the
// same control plane as opkit's tests.
func TestGeneratedProjectsPassTheirTests(t *testing.T) {
	assets := assetsDir(t)
	root := repositoryRoot(t)
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("a generated project is built with make: %v", err)
	}
	for _, p := range projects {
		t.Run(string(p.options.Type), func(t *testing.T) {
			dir := generate(t, root, p)
			checkRegeneration(t, dir, assets, p)
			checkRole(t, dir, p)
			runIn(t, dir, assets, "go", "vet", "./...")
			out := runIn(t, dir, assets, "go", "test", "-count=1", "-v", "./...")
			if !strings.Contains(out, "--- PASS: "+p.test+" ") {
				t.Errorf("the project's %s did not pass:\n%s", p.test, tail(out, 40))
			}
		})
	}
}

// generate writes p into a new directory, its go.mod replacing opkit's
// modules with this checkout's.
func generate(t *testing.T, root string, p project) string {
	t.Helper()
	o := p.options
	o.Dir = filepath.Join(t.TempDir(), o.Name)
	o.OpkitPath = root
	start := time.Now()
	dir, err := scaffold.Generate(testkit.Context(t), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generating the project: %s", time.Since(start).Round(100*time.Millisecond))
	return dir
}

// checkRegeneration deletes what make generates, regenerates it with make
// generate manifests and tidies the module: the project must be the very
// one the scaffold wrote.
func checkRegeneration(t *testing.T, dir, assets string, p project) {
	t.Helper()
	before := snapshot(t, dir)
	version := p.options.Version
	if version == "" {
		version = scaffold.DefaultVersion
	}
	remove(t, dir, "api/"+version+"/zz_generated.deepcopy.go", "api/crd/"+p.options.Group+"_"+p.plural+".yaml", "config/rbac/role.yaml")
	runIn(t, dir, assets, "make", "generate", "manifests")
	runIn(t, dir, assets, "go", "mod", "tidy")
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("make generate manifests and go mod tidy changed the project (-scaffold +regenerated):\n%s", diff)
	}
}
