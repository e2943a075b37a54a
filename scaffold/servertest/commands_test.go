package servertest_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runIn runs a command in a generated project as its author would, with
// GOWORK=off (the project is a module of its own), CI set (its tests fail
// rather than skip without a control plane) and OPKIT_ASSETS naming the
// control plane this test found. It returns the command's output and
// fails the test, showing the output's end, when the command fails.
func runIn(t *testing.T, dir, assets string, args ...string) string {
	t.Helper()
	start := time.Now()
	cmd := exec.CommandContext(t.Context(), args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "CI=true", "OPKIT_ASSETS="+assets)
	out, err := cmd.CombinedOutput()
	t.Logf("%s: %s", strings.Join(args, " "), time.Since(start).Round(100*time.Millisecond))
	if err != nil {
		t.Fatalf("%s in %s: %v\n%s", strings.Join(args, " "), dir, err, tail(string(out), 60))
	}
	return string(out)
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// snapshot returns every file of the project, by path relative to it.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, name)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// remove deletes files of the project.
func remove(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
}
