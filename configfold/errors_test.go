package configfold

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// TestErrorClasses proves the class, the author and the absolute field path
// of every error type the package returns, as a caller sees them through
// wrapping: with the failure package alone.
func TestErrorClasses(t *testing.T) {
	at := func(layer v1alpha1.Layer, field string) *FieldError {
		return &FieldError{Layer: layer, RoleName: "server", RoleGroupName: "default", Field: field, Err: ErrUnknownField}
	}
	type classified struct {
		Class  failure.Class
		Author failure.Author
		Field  string
	}
	tests := []struct {
		name string
		err  error
		want classified
	}{
		{name: "FieldError in the role group is the user's",
			err:  at(v1alpha1.LayerRoleGroup, "config.affinity.nodeAffinty"),
			want: classified{failure.ClassInvalid, failure.AuthorUser, "spec.roles.server.roleGroups.default.config.affinity.nodeAffinty"}},
		{name: "FieldError in the role is the user's",
			err:  at(v1alpha1.LayerRole, "podOverrides.spec.containres"),
			want: classified{failure.ClassInvalid, failure.AuthorUser, "spec.roles.server.podOverrides.spec.containres"}},
		{name: "FieldError in the declaration is the operator's",
			err:  at(v1alpha1.LayerDeclaration, "config.gracefulShutdownTimeout"),
			want: classified{failure.ClassInvalid, failure.AuthorOperator, "roles[server].config.gracefulShutdownTimeout"}},
		{name: "FieldError without a layer blames no one",
			err:  &FieldError{Field: "nodeAffinty", Err: ErrUnknownField},
			want: classified{failure.ClassInvalid, failure.AuthorUnknown, "nodeAffinty"}},
		{name: "TypeError is the operator's",
			err:  &TypeError{Type: "hdfs.ConfigSpec", GoField: "Port", JSONName: "port", Reason: "bare"},
			want: classified{failure.ClassInvalid, failure.AuthorOperator, "hdfs.ConfigSpec.Port"}},
		{name: "TypeError on the whole type names the type",
			err:  &TypeError{Type: "*hdfs.ConfigSpec", Reason: "not a struct"},
			want: classified{failure.ClassInvalid, failure.AuthorOperator, "*hdfs.ConfigSpec"}},
		{name: "missing names are the operator's",
			err: func() error {
				_, err := FoldCommon(Layers[v1alpha1.RoleGroupConfigSpec]{Role: &v1alpha1.RoleGroupConfigSpec{}})
				return err
			}(),
			want: classified{failure.ClassInvalid, failure.AuthorOperator, "configfold.Layers.RoleName"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wrapped := fmt.Errorf("role group server/default: %w", errors.Join(errors.New("other"), tt.err))
			got := classified{failure.ClassOf(wrapped), failure.AuthorOf(wrapped), failure.FieldOf(wrapped)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("classification mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFieldErrorKeepsItsCauseDetectable(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &FieldError{Layer: v1alpha1.LayerRole, RoleName: "server", Field: "config.affinity.x", Err: ErrUnknownField})
	if !errors.Is(err, ErrUnknownField) || !errors.Is(err, failure.ErrInvalid) {
		t.Errorf("errors.Is lost the cause or the class of %v", err)
	}
	if errors.Is(err, failure.ErrRetriable) || errors.Is(err, failure.ErrRequeue) {
		t.Errorf("%v claims a class it does not have", err)
	}
}
