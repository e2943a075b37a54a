package scaffold

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-logr/logr"
)

// Generate writes the project o describes and completes it (go mod tidy,
// go generate, go build) unless o.NoRun; it returns the project's
// directory. Refused options are a joined list of *FlagError, every one
// found, and nothing is written. The project is written and completed in
// a hidden directory beside the target, which it replaces only at the
// end: a failure leaves the target as it was.
func Generate(ctx context.Context, o Options) (string, error) {
	w, err := o.check()
	if err != nil {
		return "", err
	}
	p := newProject(o, w)
	files, err := render(p)
	if err != nil {
		return "", err
	}
	if files["go.mod"], err = goMod(p, w); err != nil {
		return "", err
	}
	s, err := newStage(o.dir())
	if err != nil {
		return "", err
	}
	if err := build(ctx, s, files, o.NoRun); err != nil {
		return "", errors.Join(err, s.discard())
	}
	logr.FromContextOrDiscard(ctx).Info("created", "dir", s.target)
	return s.target, nil
}

// build writes files into s, completes them unless noRun, and commits s.
func build(ctx context.Context, s *stage, files map[string][]byte, noRun bool) error {
	if err := s.write(files); err != nil {
		return fmt.Errorf("writing the project: %w", err)
	}
	if !noRun {
		if err := complete(ctx, s.dir); err != nil {
			return fmt.Errorf("completing the project: %w", err)
		}
	}
	return s.commit()
}
