package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// checkDir refuses a target that exists and is anything but an empty
// directory: the scaffold never writes over a file.
func checkDir(dir string) *FlagError {
	if dir == "" {
		return nil // no name to default to: --name says so
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &FlagError{Flag: "--dir", Value: dir, Rule: "must be an empty directory or not exist: " + err.Error()}
	case len(entries) > 0:
		return &FlagError{Flag: "--dir", Value: dir, Rule: "must be an empty directory or not exist: it holds " + holding(entries) + "; nothing was written"}
	}
	return nil
}

// holding names the first of a directory's entries (ReadDir sorts them)
// and counts the others.
func holding(entries []fs.DirEntry) string {
	switch len(entries) {
	case 1:
		return entries[0].Name()
	case 2:
		return entries[0].Name() + " and 1 other entry"
	}
	return fmt.Sprintf("%s and %d other entries", entries[0].Name(), len(entries)-1)
}

// stage is a directory beside the target, where the project is written
// and completed, then renamed to the target: a generation that fails
// leaves nothing at the target.
type stage struct {
	dir, target string
}

// newStage creates the staging directory of target, and target's parent
// when missing.
func newStage(target string) (*stage, error) {
	target, err := filepath.Abs(target)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(target)+".scaffold-")
	if err != nil {
		return nil, err
	}
	return &stage{dir: dir, target: target}, nil
}

// write writes files (slash-separated paths relative to the project).
func (s *stage) write(files map[string][]byte) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		file := filepath.Join(s.dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// commit renames the staging directory to the target, which must still
// be absent or empty.
func (s *stage) commit() error {
	if err := os.Chmod(s.dir, 0o755); err != nil { // MkdirTemp made it private
		return err
	}
	if err := os.Remove(s.target); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is no longer empty: %w", s.target, err)
	}
	return os.Rename(s.dir, s.target)
}

// discard removes the staging directory and everything in it.
func (s *stage) discard() error {
	return os.RemoveAll(s.dir)
}
