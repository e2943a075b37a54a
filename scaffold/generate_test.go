package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/modfile"
)

// A non-empty directory is refused, and left as it was.
func TestGenerateRefusesANonEmptyDirectory(t *testing.T) {
	o := validOptions(t)
	writeFile(t, filepath.Join(o.Dir, "notes.txt"))
	if _, err := Generate(t.Context(), o); err == nil || !strings.Contains(err.Error(), "--dir") {
		t.Fatalf("Generate = %v, want the directory refused", err)
	}
	checkEntries(t, o.Dir, "notes.txt")
	checkEntries(t, filepath.Dir(o.Dir), filepath.Base(o.Dir))
	if b, _ := os.ReadFile(filepath.Join(o.Dir, "notes.txt")); string(b) != "keep me\n" {
		t.Errorf("notes.txt now holds %q", b)
	}
}

// A project whose completion fails leaves nothing behind: neither the
// target nor the staging directory beside it.
func TestFailedCompletionLeavesNothing(t *testing.T) {
	t.Setenv("GOPROXY", "off") // go mod tidy cannot find the modules the project imports
	t.Setenv("GOFLAGS", "-mod=mod")
	o := validOptions(t)
	o.OpkitVersion = ""
	o.OpkitPath = fakeCheckout(t, map[string][]string{"api": nil, "builders": nil, "imageresolve": nil, "reconciler": nil, "testkit": nil})
	_, err := Generate(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "completing the project: go mod tidy") {
		t.Fatalf("Generate = %v, want go mod tidy to fail", err)
	}
	checkEntries(t, filepath.Dir(o.Dir))
}

// Without completion the files are written as they are, into the empty
// directory given, readable by all.
func TestNoRunWritesTheFiles(t *testing.T) {
	o := validOptions(t)
	o.NoRun = true
	mkdir(t, o.Dir)
	dir, err := Generate(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	if dir != o.Dir {
		t.Errorf("Generate wrote to %s, want %s", dir, o.Dir)
	}
	checkEntries(t, filepath.Dir(o.Dir), filepath.Base(o.Dir))
	info, err := os.Stat(dir)
	if err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("the project's directory: %v, mode %v", err, info.Mode())
	}
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	var requires, tools []string
	for _, r := range mf.Require {
		requires = append(requires, r.Mod.String())
	}
	for _, tool := range mf.Tool {
		tools = append(tools, tool.Path)
	}
	want := []string{
		opkitPrefix + "api@v0.3.0", opkitPrefix + "builders@v0.3.0", opkitPrefix + "imageresolve@v0.3.0",
		opkitPrefix + "reconciler@v0.3.0", opkitPrefix + "testkit@v0.3.0", "sigs.k8s.io/controller-tools@" + ControllerToolsVersion,
	}
	if diff := cmp.Diff(want, requires); diff != "" {
		t.Errorf("go.mod requires (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{controllerGen}, tools); diff != "" || mf.Go.Version != goVersion || len(mf.Replace) > 0 {
		t.Errorf("go.mod: tools (-want +got):\n%s\ngo %s, %d replace directives", diff, mf.Go.Version, len(mf.Replace))
	}
}

// checkEntries compares the names in dir with want.
func checkEntries(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s holds (-want +got):\n%s", dir, diff)
	}
}
