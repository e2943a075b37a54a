package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// opkitPrefix is the path every opkit module starts with; the rest is the
// module's directory in the repository.
const opkitPrefix = "github.com/opkit-dev/opkit/"

// ControllerToolsVersion is the release of controller-tools a project
// pins for controller-gen (a tool directive in its go.mod): the one opkit
// generates its own code with.
const ControllerToolsVersion = "v0.23.0"

// develVersion is the version a project requires of an opkit module that
// its go.mod replaces with a directory.
const develVersion = "v0.0.0"

// requiredModules returns the opkit modules (their directories) a project
// of type t imports, sorted; nil for an unknown type.
func requiredModules(t Type) []string {
	switch t {
	case Product:
		return []string{"api", "builders", "imageresolve", "reconciler", "testkit"}
	case Component:
		return []string{"api", "generators", "reconciler", "testkit"}
	}
	return nil
}

// opkitWiring is how a project's go.mod reaches opkit.
type opkitWiring struct {
	// requires are the opkit modules the project imports, at the version
	// it requires.
	requires []module.Version
	// replaces map, with OpkitPath, every opkit module the project needs,
	// directly or through another, to its directory; sorted by path.
	replaces []replacement
}

// replacement is one replace directive: a module path to a directory.
type replacement struct {
	path, dir string
}

// opkit returns the project's wiring to opkit from OpkitPath, OpkitVersion
// or, with neither, the scaffold's own release; a flag it cannot use is a
// *FlagError.
func (o Options) opkit() (opkitWiring, *FlagError) {
	switch {
	case o.OpkitPath != "" && o.OpkitVersion != "":
		return opkitWiring{}, &FlagError{Flag: "--opkit-version", Value: o.OpkitVersion, Rule: "must not be given with --opkit-path: give one of them"}
	case o.OpkitPath != "":
		w, err := fromCheckout(o.Type, o.OpkitPath)
		if err != nil {
			return opkitWiring{}, &FlagError{Flag: "--opkit-path", Value: o.OpkitPath, Rule: "must be a checkout of opkit: " + err.Error()}
		}
		return w, nil
	case o.OpkitVersion != "":
		if !isRelease(o.OpkitVersion) {
			return opkitWiring{}, &FlagError{Flag: "--opkit-version", Value: o.OpkitVersion, Rule: "must be a release's semantic version, such as v0.3.0 (opkit tags each module <dir>/vX.Y.Z), not a pseudo-version"}
		}
		return atVersion(o.Type, o.OpkitVersion), nil
	}
	own := moduleVersion(o.buildInfo())
	if !isRelease(own) {
		return opkitWiring{}, &FlagError{Flag: "--opkit-path or --opkit-version", Rule: fmt.Sprintf(
			"one is required: this scaffold is not a release of %s (its version is %q), so it cannot tell which opkit release to require", ModulePath, own)}
	}
	return atVersion(o.Type, own), nil
}

// atVersion requires each module the project imports at version; the
// module proxy serves the rest as those modules' go.mod files require.
func atVersion(t Type, version string) opkitWiring {
	var w opkitWiring
	for _, m := range requiredModules(t) {
		w.requires = append(w.requires, module.Version{Path: opkitPrefix + m, Version: version})
	}
	return w
}

// fromCheckout requires each module the project imports at v0.0.0 and
// replaces it, and every opkit module those require in turn (their go.mod
// files say which), with its directory in the checkout at root.
func fromCheckout(t Type, root string) (opkitWiring, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return opkitWiring{}, err
	}
	var w opkitWiring
	for _, m := range requiredModules(t) {
		w.requires = append(w.requires, module.Version{Path: opkitPrefix + m, Version: develVersion})
	}
	seen := map[string]bool{}
	queue := slices.Clone(requiredModules(t))
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		siblings, err := opkitRequires(root, dir)
		if err != nil {
			return opkitWiring{}, err
		}
		queue = append(queue, siblings...)
		w.replaces = append(w.replaces, replacement{path: opkitPrefix + dir, dir: filepath.Join(root, filepath.FromSlash(dir))})
	}
	slices.SortFunc(w.replaces, func(a, b replacement) int { return strings.Compare(a.path, b.path) })
	return w, nil
}

// opkitRequires reads the go.mod of module dir in the checkout at root and
// returns the opkit modules it requires (their directories).
func opkitRequires(root, dir string) ([]string, error) {
	file := filepath.Join(root, filepath.FromSlash(dir), "go.mod")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	mf, err := modfile.ParseLax(file, data, nil)
	if err != nil {
		return nil, err
	}
	if mf.Module == nil || mf.Module.Mod.Path != opkitPrefix+dir {
		return nil, fmt.Errorf("%s is not the go.mod of %s%s", file, opkitPrefix, dir)
	}
	var out []string
	for _, r := range mf.Require {
		if sibling, ok := strings.CutPrefix(r.Mod.Path, opkitPrefix); ok {
			out = append(out, sibling)
		}
	}
	return out, nil
}
