// Command versions keeps the repository's modules on one version of each
// dependency they share. Go's build cache keys a compiled package by the
// versions of everything below it, so two modules that select different
// versions of, say, golang.org/x/sys compile their own copies of
// k8s.io/api, client-go and controller-runtime (twice more with the race
// detector): on a fresh machine that is most of the first make test.
//
//	go run ./versions [-w] <module dir>...
//
// It reads each module's go.mod requirements (the opkit siblings aside)
// and reports every module path required at more than one version, with
// the modules that require each version; it exits 1 when there is one.
// With -w it raises each such requirement to the highest version among
// the modules instead, which go mod tidy in each module then completes
// (hack/versions.sh repeats both until nothing moves).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// siblings is the module path prefix of the repository's own modules,
// which require each other at v0.0.0 and are replaced by directory.
const siblings = "github.com/opkit-dev/opkit/"

func main() {
	write := flag.Bool("w", false, "raise each requirement to the highest version among the modules")
	flag.Parse()
	mismatches, err := run(os.Stdout, flag.Args(), *write)
	if err != nil {
		fmt.Fprintln(os.Stderr, "versions:", err)
		os.Exit(2)
	}
	if mismatches > 0 && !*write {
		os.Exit(1)
	}
}

// module is one go.mod, parsed.
type module struct {
	dir  string
	path string // the go.mod file
	file *modfile.File
}

// run reads the go.mod of each dir, reports to out the paths required at
// more than one version and, with write, raises them. It returns how many
// paths were required at more than one version.
func run(out io.Writer, dirs []string, write bool) (int, error) {
	mods := make([]module, 0, len(dirs))
	for _, dir := range dirs {
		path := filepath.Join(dir, "go.mod")
		data, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		f, err := modfile.Parse(path, data, nil)
		if err != nil {
			return 0, err
		}
		mods = append(mods, module{dir: dir, path: path, file: f})
	}
	// required: module path → version → the modules requiring it.
	required := map[string]map[string][]string{}
	for _, m := range mods {
		for _, r := range m.file.Require {
			if strings.HasPrefix(r.Mod.Path, siblings) {
				continue
			}
			if required[r.Mod.Path] == nil {
				required[r.Mod.Path] = map[string][]string{}
			}
			required[r.Mod.Path][r.Mod.Version] = append(required[r.Mod.Path][r.Mod.Version], m.dir)
		}
	}
	highest := map[string]string{}
	paths := make([]string, 0, len(required))
	for p, versions := range required {
		if len(versions) < 2 {
			continue
		}
		paths = append(paths, p)
		for v := range versions {
			if semver.Compare(v, highest[p]) > 0 {
				highest[p] = v
			}
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		versions := make([]string, 0, len(required[p]))
		for v := range required[p] {
			versions = append(versions, v)
		}
		semver.Sort(versions)
		parts := make([]string, 0, len(versions))
		for _, v := range versions {
			parts = append(parts, fmt.Sprintf("%s (%s)", v, strings.Join(required[p][v], ", ")))
		}
		if _, err := fmt.Fprintf(out, "%s: %s\n", p, strings.Join(parts, "; ")); err != nil {
			return 0, err
		}
	}
	if !write || len(paths) == 0 {
		return len(paths), nil
	}
	for _, m := range mods {
		changed := false
		for _, r := range m.file.Require {
			if v, ok := highest[r.Mod.Path]; ok && r.Mod.Version != v {
				if err := m.file.AddRequire(r.Mod.Path, v); err != nil {
					return 0, fmt.Errorf("%s: %w", m.path, err)
				}
				changed = true
			}
		}
		if !changed {
			continue
		}
		m.file.Cleanup()
		data, err := m.file.Format()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", m.path, err)
		}
		if err := os.WriteFile(m.path, data, 0o644); err != nil {
			return 0, err
		}
	}
	return len(paths), nil
}
