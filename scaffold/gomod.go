package scaffold

import (
	"golang.org/x/mod/modfile"
)

// goVersion is the go directive of a project's go.mod: opkit's own.
const goVersion = "1.26.0"

// controllerGen is the tool a project runs to generate its deep copies
// and CRD.
const (
	controllerTools = "sigs.k8s.io/controller-tools"
	controllerGen   = controllerTools + "/cmd/controller-gen"
)

// goMod returns the project's go.mod before go mod tidy: its module, the
// go version, controller-gen as a tool pinned at ControllerToolsVersion,
// the opkit modules it imports and, from a checkout, the replace
// directives of every opkit module it needs.
func goMod(p project, w opkitWiring) ([]byte, error) {
	f := &modfile.File{}
	if err := f.AddModuleStmt(p.Module); err != nil {
		return nil, err
	}
	if err := f.AddGoStmt(goVersion); err != nil {
		return nil, err
	}
	for _, r := range w.requires {
		f.AddNewRequire(r.Path, r.Version, false)
	}
	f.AddNewRequire(controllerTools, ControllerToolsVersion, false)
	if err := f.AddTool(controllerGen); err != nil {
		return nil, err
	}
	for _, r := range w.replaces {
		if err := f.AddReplace(r.path, "", r.dir, ""); err != nil {
			return nil, err
		}
	}
	f.Cleanup()
	return f.Format()
}
