package helm

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"strings"

	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/ignore"

	"github.com/opkit-dev/opkit/generators"
)

// readChart reads the chart directory dir of fsys the way Helm's directory
// loader reads a directory on disk: .helmignore and Helm's default rules
// (dot files in templates/) leave files out, a UTF-8 byte order mark is
// dropped.
func readChart(fsys fs.FS, dir string) ([]*archive.BufferedFile, error) {
	if !fs.ValidPath(dir) {
		return nil, &generators.ConfigError{Field: "dir", Err: fmt.Errorf("%q is not a valid fs.FS path (relative, slash-separated, no ..)", dir)}
	}
	root, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, &generators.ConfigError{Field: "dir", Err: err}
	}
	rules, err := ignoreRules(root)
	if err != nil {
		return nil, err
	}
	var files []*archive.BufferedFile
	err = fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if rules.Ignore(p, fi) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		data, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		files = append(files, &archive.BufferedFile{Name: p, ModTime: fi.ModTime(), Data: bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))})
		return nil
	})
	if err != nil {
		return nil, &generators.ConfigError{Field: "dir", Err: fmt.Errorf("reading chart %q: %w", dir, err)}
	}
	return files, nil
}

func ignoreRules(root fs.FS) (*ignore.Rules, error) {
	rules := ignore.Empty()
	f, err := root.Open(ignore.HelmIgnore)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, &generators.ConfigError{Field: ignore.HelmIgnore, Err: err}
	default:
		defer f.Close() //nolint:errcheck // read only: closing cannot lose data
		if rules, err = ignore.Parse(f); err != nil {
			return nil, &generators.ConfigError{Field: ignore.HelmIgnore, Err: err}
		}
	}
	rules.AddDefaults()
	return rules, nil
}

// loadChart builds a fresh chart from the files: Helm's loader renames the
// files of subcharts and dependency processing disables subcharts in
// place, so every rendering loads its own copy.
func loadChart(files []*archive.BufferedFile) (*chart.Chart, error) {
	own := make([]*archive.BufferedFile, len(files))
	for i, f := range files {
		c := *f
		own[i] = &c
	}
	return loader.LoadFiles(own)
}

// checkChart refuses charts a generator cannot render: a library chart, or
// a dependency of Chart.yaml missing from charts/ (dependencies are
// vendored into the chart as directories or .tgz archives; nothing is
// downloaded).
func checkChart(ch *chart.Chart) error {
	if ch.Metadata.Type == "library" {
		return &generators.ConfigError{Field: "Chart.yaml", Err: fmt.Errorf("chart %q is a library chart and renders no objects", ch.Name())}
	}
	var missing []string
	for c := range walk(ch) {
		present := map[string]bool{}
		for _, d := range c.Dependencies() {
			present[d.Name()] = true
		}
		for _, d := range c.Metadata.Dependencies {
			if !present[d.Name] {
				missing = append(missing, c.ChartFullPath()+"/charts/"+d.Name)
			}
		}
	}
	if len(missing) > 0 {
		return &generators.ConfigError{Field: "Chart.yaml", Err: fmt.Errorf("dependencies not vendored into charts/: %s", strings.Join(missing, ", "))}
	}
	return nil
}

// walk yields ch and its subcharts, depth first.
func walk(ch *chart.Chart) iter.Seq[*chart.Chart] {
	return func(yield func(*chart.Chart) bool) {
		var rec func(*chart.Chart) bool
		rec = func(c *chart.Chart) bool {
			if !yield(c) {
				return false
			}
			for _, d := range c.Dependencies() {
				if !rec(d) {
					return false
				}
			}
			return true
		}
		rec(ch)
	}
}
