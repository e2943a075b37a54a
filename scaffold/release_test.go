package scaffold

import (
	"runtime/debug"
	"testing"
)

// The default opkit release is the scaffold's own, only when it is one.
func TestModuleVersion(t *testing.T) {
	dep := func(version string, replaced bool) *debug.BuildInfo {
		d := &debug.Module{Path: ModulePath, Version: version}
		if replaced {
			d.Replace = &debug.Module{Path: "../scaffold"}
		}
		return &debug.BuildInfo{Main: debug.Module{Path: "example.com/tool"}, Deps: []*debug.Module{d}}
	}
	tests := []struct {
		name    string
		bi      *debug.BuildInfo
		want    string
		release bool
	}{
		{"no build information", nil, "", false},
		{"the command at a release", scaffoldBuild("v0.3.0"), "v0.3.0", true},
		{"the command at a pre-release", scaffoldBuild("v1.0.0-rc.1"), "v1.0.0-rc.1", true},
		{"the command built in a checkout", scaffoldBuild("(devel)"), "(devel)", false},
		{"the command at a commit", scaffoldBuild("v0.3.1-0.20261201000000-0123456789ab"), "v0.3.1-0.20261201000000-0123456789ab", false},
		{"a dependency at a release", dep("v0.3.0", false), "v0.3.0", true},
		{"a dependency replaced by a directory", dep("v0.0.0", true), "", false},
		{"another program", &debug.BuildInfo{Main: debug.Module{Path: "example.com/tool", Version: "v1.0.0"}}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := moduleVersion(tt.bi)
			if got != tt.want || isRelease(got) != tt.release {
				t.Errorf("moduleVersion = %q (release %v), want %q (release %v)", got, isRelease(got), tt.want, tt.release)
			}
		})
	}
}
