package main

import (
	"bytes"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every refused flag is reported in one run, each on its own line naming
// the flag and the rule, and nothing is written.
func TestRunReportsEveryRefusal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"new", "--type", "operator", "--name", "Zk", "--module", "zk", "--group", "zk",
		"--version", "v0", "--kind", "zk", "--dir", dir, "--opkit-version", "0.3"}, &stdout, &stderr)
	if err == nil {
		t.Fatal("run accepted every flag")
	}
	var out bytes.Buffer
	report(&out, err)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var flags []string
	for _, l := range lines[1:] {
		flags = append(flags, strings.Fields(l)[0])
	}
	want := []string{"--type", "--name", "--module", "--group", "--version", "--kind", "--opkit-version"}
	if diff := cmp.Diff(want, flags); diff != "" || lines[0] != "opkit-scaffold: nothing was written:" {
		t.Errorf("report (-want +got flags):\n%s\n%s", diff, out.String())
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout: %s", stdout.String())
	}
}

// The command line has one command, and its values are flags.
func TestRunRefusesOtherCommandsAndArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"init"}, {"new", "--type", "product", "zk"}} {
		var stdout, stderr bytes.Buffer
		if err := run(t.Context(), args, &stdout, &stderr); err == nil || errors.Is(err, flag.ErrHelp) {
			t.Errorf("run(%q) = %v, want a refusal", args, err)
		}
	}
}

// --help lists every flag.
func TestHelpListsTheFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"new", "--help"}, &stdout, &stderr); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run = %v, want flag.ErrHelp", err)
	}
	for _, f := range []string{"type", "name", "module", "group", "version", "kind", "dir", "opkit-path", "opkit-version", "no-run"} {
		if !strings.Contains(stderr.String(), "  -"+f+" ") && !strings.Contains(stderr.String(), "  -"+f+"\n") {
			t.Errorf("the help does not list --%s:\n%s", f, stderr.String())
		}
	}
}
