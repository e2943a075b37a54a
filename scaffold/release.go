package scaffold

import (
	"runtime/debug"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// ModulePath is the scaffold's own module path.
const ModulePath = opkitPrefix + "scaffold"

// buildInfo returns o.BuildInfo, or the running binary's.
func (o Options) buildInfo() *debug.BuildInfo {
	if o.BuildInfo != nil {
		return o.BuildInfo
	}
	bi, _ := debug.ReadBuildInfo()
	return bi
}

// moduleVersion returns the version of the scaffold's module in bi: the
// main module's when the scaffold is the command run (go run
// .../scaffold/cmd/opkit-scaffold@v0.3.0), else the dependency's; "" when
// bi has neither, or the dependency is replaced by a directory.
func moduleVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return ""
	}
	if bi.Main.Path == ModulePath {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == ModulePath && d.Replace == nil {
			return d.Version
		}
	}
	return ""
}

// isRelease reports whether v names a release: a canonical semantic
// version ("v0.3.0", "v1.0.0-rc.1") that is no pseudo-version. A build
// from a directory says "(devel)"; a pseudo-version names a commit of one
// module, which no other module's version names.
func isRelease(v string) bool {
	return semver.IsValid(v) && semver.Canonical(v) == v && !module.IsPseudoVersion(v)
}
