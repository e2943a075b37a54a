package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// checkDockerfile fails the test when the Dockerfile's final stage runs
// the binary as another user or from another entrypoint than cfg, or
// builds it with other flags than the command does.
func checkDockerfile(t *testing.T, path, example string, cfg v1.Config) {
	t.Helper()
	stage := finalStage(t, path)
	if got := stage["USER"]; got != cfg.User {
		t.Errorf("%s: USER %q, the daemonless image's user %q", path, got, cfg.User)
	}
	var entrypoint []string
	if err := json.Unmarshal([]byte(stage["ENTRYPOINT"]), &entrypoint); err != nil {
		t.Errorf("%s: ENTRYPOINT %q is not an exec form: %v", path, stage["ENTRYPOINT"], err)
	}
	if diff := cmp.Diff(cfg.Entrypoint, entrypoint); diff != "" {
		t.Errorf("%s: ENTRYPOINT (-daemonless +Dockerfile):\n%s", path, diff)
	}
	if !strings.HasSuffix(stage["COPY"], " "+binaryPath) {
		t.Errorf("%s: COPY %q does not put the binary at %s", path, stage["COPY"], binaryPath)
	}
	build := stage["build RUN"]
	for _, want := range append([]string{"CGO_ENABLED=0", "./" + example}, buildFlags...) {
		want = strings.ReplaceAll(want, "-ldflags=-s -w", `-ldflags="-s -w"`)
		if !strings.Contains(build, want) {
			t.Errorf("%s: the build stage's go build lacks %s:\n%s", path, want, build)
		}
	}
}

// finalStage reads a Dockerfile's instructions (continuation lines
// joined): those of its last stage by name, and the build stage's last
// RUN as "build RUN".
func finalStage(t *testing.T, path string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	var cur strings.Builder
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if s, ok := strings.CutSuffix(l, "\\"); ok {
			cur.WriteString(s)
			continue
		}
		cur.WriteString(l)
		if s := strings.TrimSpace(cur.String()); s != "" {
			lines = append(lines, s)
		}
		cur.Reset()
	}
	stage := map[string]string{}
	var buildRun string
	for _, l := range lines {
		instr, args, _ := strings.Cut(l, " ")
		if instr == "FROM" {
			if run, ok := stage["RUN"]; ok {
				buildRun = run
			}
			stage = map[string]string{}
		}
		stage[instr] = strings.TrimSpace(args)
	}
	stage["build RUN"] = buildRun
	return stage
}
