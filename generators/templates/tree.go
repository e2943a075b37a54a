package templates

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"

	"github.com/opkit-dev/opkit/generators"
)

// File is one file of a tree: its path relative to the tree's root, with
// forward slashes, and its content.
type File struct {
	Path string
	Data []byte
}

// IsHelper reports whether the file only holds definitions for include:
// its name starts with "_". Helpers are parsed but never rendered.
func (f File) IsHelper() bool { return strings.HasPrefix(path.Base(f.Path), "_") }

// readTree returns the regular files below dir in fsys, in lexical path
// order, without the ignore file and what it ignores.
func readTree(fsys fs.FS, dir, ignoreName string) ([]File, error) {
	if !fs.ValidPath(dir) {
		return nil, &generators.ConfigError{Field: "dir", Err: fmt.Errorf("%q is not a valid fs.FS path (relative, slash-separated, no ..)", dir)}
	}
	root, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, &generators.ConfigError{Field: "dir", Err: err}
	}
	ignore, err := readIgnore(root, ignoreName)
	if err != nil {
		return nil, err
	}
	var files []File
	err = fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." || p == ignoreName {
			return nil
		}
		if ignore != nil {
			skip, err := ignore.MatchesOrParentMatches(p)
			if err != nil {
				return err
			}
			if skip {
				if d.IsDir() && !ignore.Exclusions() {
					return fs.SkipDir
				}
				return nil
			}
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		data, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		files = append(files, File{Path: p, Data: data})
		return nil
	})
	if err != nil {
		return nil, &generators.ConfigError{Field: "dir", Err: fmt.Errorf("reading %q: %w", dir, err)}
	}
	return files, nil
}

func readIgnore(root fs.FS, name string) (*patternmatcher.PatternMatcher, error) {
	f, err := root.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &generators.ConfigError{Field: name, Err: err}
	}
	defer f.Close() //nolint:errcheck // read only: closing cannot lose data
	patterns, err := ignorefile.ReadAll(f)
	if err != nil {
		return nil, &generators.ConfigError{Field: name, Err: err}
	}
	m, err := patternmatcher.New(patterns)
	if err != nil {
		return nil, &generators.ConfigError{Field: name, Err: err}
	}
	return m, nil
}
