package configfold

import (
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// unwrapAll returns the errors joined in err, or err alone.
func unwrapAll(err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		return joined.Unwrap()
	}
	return []error{err}
}

// serverDefault returns the layers of role group "default" of role "server".
func serverDefault[T any](declaration, role, group *T) Layers[T] {
	return Layers[T]{RoleName: "server", RoleGroupName: "default", Declaration: declaration, Role: role, RoleGroup: group}
}

// foldCommon folds the layers of server/default.
func foldCommon(declaration, role, group *v1alpha1.RoleGroupConfigSpec) (Common, error) {
	return FoldCommon(serverDefault(declaration, role, group))
}
