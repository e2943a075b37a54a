package imageresolve_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/imageresolve"
)

func TestValidationErrorMessagesPerLayer(t *testing.T) {
	tests := []struct {
		name string
		err  *imageresolve.ValidationError
		want string
	}{
		{name: "the cluster's value needs no explanation",
			err:  &imageresolve.ValidationError{Field: imageresolve.FieldRepo, Value: "Quay.io", Layer: v1alpha1.LayerCluster, Err: imageresolve.ErrInvalidReference},
			want: `spec.image.repo "Quay.io": invalid image reference`},
		{name: "the declaration's value says how the user overrides it",
			err: &imageresolve.ValidationError{Field: imageresolve.FieldProductVersion, Value: ".1", Layer: v1alpha1.LayerDeclaration,
				RoleName: "worker", Err: imageresolve.ErrInvalidReference},
			want: `roles[worker].image.productVersion ".1" (from the operator's role declaration, not the cluster resource; ` +
				`spec.image.productVersion overrides it): invalid image reference`},
		{name: "an option is the operator's alone",
			err:  &imageresolve.ValidationError{Field: imageresolve.FieldProductName, Value: "Trino", Layer: v1alpha1.LayerDefaults, Err: imageresolve.ErrInvalidReference},
			want: `defaults.productName "Trino" (from the operator's image options, not the cluster resource): invalid image reference`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

// TestErrorClasses proves the class, author and absolute path of every
// error type Resolve returns, through wrapping, with the failure package
// alone.
func TestErrorClasses(t *testing.T) {
	type classified struct {
		Class  failure.Class
		Author failure.Author
		Path   string
	}
	tests := []struct {
		name string
		err  error
		want classified
	}{
		{name: "a value from the cluster is the user's",
			err:  &imageresolve.ValidationError{Field: imageresolve.FieldProductVersion, Layer: v1alpha1.LayerCluster, Err: imageresolve.ErrInvalidReference},
			want: classified{failure.ClassInvalid, failure.AuthorUser, "spec.image.productVersion"}},
		{name: "a value from the declaration is the operator's",
			err:  &imageresolve.ValidationError{Field: imageresolve.FieldRepo, Layer: v1alpha1.LayerDeclaration, RoleName: "worker", Err: imageresolve.ErrInvalidReference},
			want: classified{failure.ClassInvalid, failure.AuthorOperator, "roles[worker].image.repo"}},
		{name: "a value from the defaults is the operator's",
			err:  &imageresolve.ValidationError{Field: imageresolve.FieldPlatformVersion, Layer: v1alpha1.LayerDefaults, Err: imageresolve.ErrInvalidReference},
			want: classified{failure.ClassInvalid, failure.AuthorOperator, "defaults.image.platformVersion"}},
		{name: "a missing field is the user's to set in spec.image",
			err:  &imageresolve.ValidationError{Field: imageresolve.FieldRepo, Err: imageresolve.ErrMissingField},
			want: classified{failure.ClassInvalid, failure.AuthorUser, "spec.image.repo"}},
		{name: "a declaration without a role name is the operator's",
			err: func() error {
				_, err := imageresolve.Resolve(operator(), imageresolve.Layers{Declaration: &v1alpha1.ImageSpec{}})
				return err
			}(),
			want: classified{failure.ClassInvalid, failure.AuthorOperator, "imageresolve.Layers.RoleName"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wrapped := fmt.Errorf("role coordinator: %w", errors.Join(errors.New("other"), tc.err))
			got := classified{failure.ClassOf(wrapped), failure.AuthorOf(wrapped), failure.FieldOf(wrapped)}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("classification (-want +got):\n%s", diff)
			}
		})
	}
}
