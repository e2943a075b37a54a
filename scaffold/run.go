package scaffold

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/go-logr/logr"
)

// completion are the commands that complete a written project, in order:
// the module's requirements and sums, what `make manifests` generates
// (deep copies, CRD, RBAC: every go:generate line), and a build that
// proves the project compiles.
func completion() [][]string {
	return [][]string{
		{"go", "mod", "tidy"},
		{"go", "generate", "./..."},
		{"go", "build", "./..."},
	}
}

// complete runs the completion commands in dir, outside any Go workspace
// (the project is a module of its own wherever it is written). A command
// that fails is an error holding its output.
func complete(ctx context.Context, dir string) error {
	log := logr.FromContextOrDiscard(ctx)
	for _, args := range completion() {
		line := strings.Join(args, " ")
		log.Info("running " + line)
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", line, err, out)
		}
	}
	return nil
}
