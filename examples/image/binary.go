package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
)

// buildFlags are the go build flags of the image's binary, the same as the
// Dockerfiles': no local paths, no version control stamp, no symbol table
// or debug information (stack traces stay readable), so that the same
// source gives the same binary.
var buildFlags = []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w"}

// buildBinary builds the main package pkg (a path as go build takes it,
// from the working directory) as a static linux binary for arch at out.
func buildBinary(ctx context.Context, pkg, arch, out string) error {
	args := append([]string{"build"}, buildFlags...)
	args = append(args, "-o", out, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	// Without cgo the binary links nothing dynamically, so it runs on an
	// empty base.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building %s for linux/%s: %w", pkg, arch, err)
	}
	return nil
}
