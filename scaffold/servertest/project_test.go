package servertest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/scaffold"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
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
	// life takes the project's sample through its life, with the
	// operator running and log recording its requests.
	life func(t *testing.T, c client.Client, cr *unstructured.Unstructured, log *apicount.Log)
	// unreachable are the rights config/default grants the operator that
	// the sample's life cannot use, and why: "<verb> <resource>[.<group>]"
	// → the reason.
	unreachable map[string]string
}

// sample is the file name of the project's sample, in config/samples.
func (p project) sample() string {
	return strings.ToLower(p.options.Kind) + ".yaml"
}

var projects = []project{
	{
		options: scaffold.Options{Type: scaffold.Product, Name: "zookeeper-operator", Module: "example.com/zookeeper-operator",
			Group: "zookeeper.example.com", Kind: "ZookeeperCluster"},
		plural: "zookeeperclusters", test: "TestSampleBecomesAvailable",
		ownVerbs: []string{"get", "list", "watch"},
		applied:  rbacv1.PolicyRule{APIGroups: []string{"apps"}, Resources: []string{"statefulsets"}, Verbs: []string{"create", "delete", "get", "list", "update", "watch"}},
		life:     productLife,
		unreachable: map[string]string{
			"patch events.events.k8s.io":                                "the events API patches a repeated event's series on a timer of six minutes and more, which no test waits for",
			"patch events":                                              leaderEvents,
			"get zookeeperclusters.zookeeper.example.com":               "the resource is read afresh when a status write meets a conflict, which the test's writes may or may not cause",
			"update zookeeperclusters/finalizers.zookeeper.example.com": "checked by the API server's owner-reference admission on each write of an owned object, not a request of its own",
			"list events":                                               "read only when pods the StatefulSet controller should have created are missing (admission refused them); reconciler/servertest covers that path",
			"delete persistentvolumeclaims":                             "the generated role declares no volume claims, so a retired role group has none to delete",
			"get configmaps":                                            readAfresh,
			"get services":                                              readAfresh,
			"get statefulsets.apps":                                     readAfresh,
			"get poddisruptionbudgets.policy":                           readAfresh,
		},
	},
	{
		options: scaffold.Options{Type: scaffold.Component, Name: "website-operator", Module: "example.com/website-operator",
			Group: "web.example.com", Version: "v1beta1", Kind: "Website"},
		plural: "websites", test: "TestSampleIsRenderedUpdatedAndDeleted",
		ownVerbs: []string{"get", "list", "patch", "watch"},
		applied:  rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"create", "delete", "get", "list", "update", "watch"}},
		life:     componentLife,
		unreachable: map[string]string{
			"patch events.events.k8s.io":                 "the events API patches a repeated event's series on a timer of six minutes and more, which no test waits for",
			"patch events":                               leaderEvents,
			"create namespaces":                          "the sample's objects live in its own namespace, which exists; the object engine creates a namespace only for a template that renders into a missing one",
			"get websites.web.example.com":               "the resource is read afresh when a status write meets a conflict, which the test's writes may or may not cause",
			"update websites/finalizers.web.example.com": "checked by the API server's owner-reference admission when an object the resource owns is written, not a request of its own",
		},
	},
}

// readAfresh says why the uncached reads of the applied kinds are not
// reached: the pass reads them from the cache.
const readAfresh = "read uncached only when the cache's view cannot decide: an update meeting a conflict, a cache that has not yet seen the operator's own last write, an apparent change of a kind without a generation; the edits here change stated labels, which the cached copy shows, and a retirement reads from the cache"

// leaderEvents says why no test uses leader election's right to patch an
// event.
const leaderEvents = "client-go's event recorder patches an event only when the same one repeats; leader election records one per term, naming the holder, whose identity is new in each process"

// Each type of project, generated from this checkout, is complete as it
// comes: its Makefile regenerates exactly what the scaffold generated
// (deep copies, CRD, RBAC), its RBAC grants the reconciler's rights on the
// resource and on what it applies, its own test passes against the same
// control plane as opkit's tests, and its config/default deploys an
// operator that the rights it grants let take the sample through its
// life, each right used.
func TestGeneratedProjects(t *testing.T) {
	assets := assetsDir(t)
	root := repositoryRoot(t)
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("a generated project is built with make: %v", err)
	}
	for _, p := range projects {
		t.Run(string(p.options.Type), func(t *testing.T) {
			dir := generate(t, root, p)
			t.Run("regenerates", func(t *testing.T) {
				checkRegeneration(t, dir, assets, p)
				checkRole(t, dir, p)
			})
			t.Run("passes its tests", func(t *testing.T) {
				runIn(t, dir, assets, "go", "vet", "./...")
				out := runIn(t, dir, assets, "make", "test", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -count=1 -v"))
				if !strings.Contains(out, "--- PASS: "+p.test+" ") {
					t.Errorf("the project's %s did not pass:\n%s", p.test, tail(out, 40))
				}
			})
			t.Run("deploys with the rights it needs", func(t *testing.T) {
				runIn(t, dir, assets, "make", "build")
				checkDeployedRights(t, dir, filepath.Join(dir, "bin", "manager"), p)
			})
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
