package scaffold

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// From a checkout, the project requires the modules it imports at v0.0.0
// and replaces those and every opkit module their go.mod files require,
// transitively, with the checkout's directories.
func TestFromCheckoutFollowsTheGoModFiles(t *testing.T) {
	root := fakeCheckout(t, map[string][]string{
		"api": nil, "apply": {"api"}, "builders": {"api"}, "imageresolve": {"api"},
		"reconciler": {"api", "apply", "builders"}, "testkit": {"api"}, "generators/helm": {"api"},
	})
	w, err := fromCheckout(Product, root)
	if err != nil {
		t.Fatal(err)
	}
	var requires, replaces []string
	for _, r := range w.requires {
		requires = append(requires, r.Path+" "+r.Version)
	}
	for _, r := range w.replaces {
		replaces = append(replaces, r.path+" => "+r.dir)
	}
	var want []string
	for _, m := range []string{"api", "builders", "imageresolve", "reconciler", "testkit"} {
		want = append(want, opkitPrefix+m+" v0.0.0")
	}
	if diff := cmp.Diff(want, requires); diff != "" {
		t.Errorf("requires (-want +got):\n%s", diff)
	}
	all := []string{"api", "apply", "builders", "imageresolve", "reconciler", "testkit"}
	var wantReplaces []string
	for _, m := range all {
		wantReplaces = append(wantReplaces, opkitPrefix+m+" => "+filepath.Join(root, m))
	}
	if diff := cmp.Diff(wantReplaces, replaces); diff != "" {
		t.Errorf("replaces (-want +got):\n%s", diff)
	}
}

// A directory whose go.mod is another module's is no checkout of opkit.
func TestFromCheckoutChecksTheModulePaths(t *testing.T) {
	root := fakeCheckout(t, map[string][]string{"api": nil, "builders": {"api"}, "imageresolve": nil, "reconciler": nil, "testkit": nil})
	if err := os.WriteFile(filepath.Join(root, "builders", "go.mod"), []byte("module example.com/builders\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := fromCheckout(Product, root)
	if err == nil || !strings.Contains(err.Error(), "is not the go.mod of github.com/opkit-dev/opkit/builders") {
		t.Errorf("fromCheckout = %v, want the builders go.mod refused", err)
	}
}

// With a release, the project requires the modules it imports at that
// version and replaces nothing.
func TestAtVersion(t *testing.T) {
	w := atVersion(Component, "v0.3.0")
	want := []module.Version{
		{Path: opkitPrefix + "api", Version: "v0.3.0"}, {Path: opkitPrefix + "generators", Version: "v0.3.0"},
		{Path: opkitPrefix + "reconciler", Version: "v0.3.0"}, {Path: opkitPrefix + "testkit", Version: "v0.3.0"},
	}
	if diff := cmp.Diff(want, w.requires); diff != "" || len(w.replaces) > 0 {
		t.Errorf("requires (-want +got):\n%s\nreplaces: %v", diff, w.replaces)
	}
}

// In this repository, the modules a project replaces are those
// hack/deps.txt says its imports need.
func TestRepositoryCheckoutMatchesTheDependencyTable(t *testing.T) {
	table := dependencyTable(t)
	for _, typ := range []Type{Product, Component} {
		t.Run(string(typ), func(t *testing.T) {
			w, err := fromCheckout(typ, "..")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range w.replaces {
				got = append(got, strings.TrimPrefix(r.path, opkitPrefix))
			}
			if diff := cmp.Diff(closure(table, requiredModules(typ)), got); diff != "" {
				t.Errorf("replaced modules (-hack/deps.txt +go.mod files):\n%s", diff)
			}
		})
	}
}

// dependencyTable reads ../hack/deps.txt: module to the siblings it may
// import; the test skips outside the repository.
func dependencyTable(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "hack", "deps.txt"))
	if os.IsNotExist(err) {
		t.Skip("not in the opkit repository")
	}
	if err != nil {
		t.Fatal(err)
	}
	table := map[string][]string{}
	for line := range strings.Lines(string(b)) {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		table[fields[0]] = slices.DeleteFunc(fields[1:], func(d string) bool { return d == "-" })
	}
	return table
}

// closure returns modules and what they need in table, sorted.
func closure(table map[string][]string, modules []string) []string {
	seen := map[string]bool{}
	for queue := slices.Clone(modules); len(queue) > 0; queue = queue[1:] {
		if !seen[queue[0]] {
			seen[queue[0]] = true
			queue = append(queue, table[queue[0]]...)
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// fakeCheckout writes a go.mod for each module, requiring the siblings
// given, into a new directory.
func fakeCheckout(t *testing.T, modules map[string][]string) string {
	t.Helper()
	root := t.TempDir()
	for m, requires := range modules {
		var b strings.Builder
		b.WriteString("module " + opkitPrefix + m + "\n\ngo 1.26.0\n")
		for _, r := range requires {
			b.WriteString("\nrequire " + opkitPrefix + r + " v0.0.0\n")
		}
		writeFile(t, filepath.Join(root, m, "go.mod"))
		if err := os.WriteFile(filepath.Join(root, m, "go.mod"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// In this repository, projects pin the controller-tools release opkit
// generates its own code with (hack/tools), so that both generate the
// same deep copies and CRDs.
func TestControllerToolsVersionIsTheRepositorys(t *testing.T) {
	file := filepath.Join("..", "hack", "tools", "go.mod")
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		t.Skip("not in the opkit repository")
	}
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.ParseLax(file, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(mf.Require, func(r *modfile.Require) bool { return r.Mod.Path == controllerTools })
	if i < 0 {
		t.Fatalf("%s does not require %s", file, controllerTools)
	}
	if got := mf.Require[i].Mod.Version; got != ControllerToolsVersion {
		t.Errorf("%s pins %s %s, ControllerToolsVersion is %s", file, controllerTools, got, ControllerToolsVersion)
	}
}
