package imageresolve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/distribution/reference"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/imageresolve"
)

// failed is the comparable part of a *ValidationError, with its absolute
// path and author as a caller sees them.
type failed struct {
	Field  string
	Value  string
	Layer  v1alpha1.Layer
	Path   string
	Author failure.Author
	Cause  error
}

// failures flattens a (possibly joined) error into its ValidationErrors.
func failures(t *testing.T, err error) []failed {
	t.Helper()
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []failed
	for _, e := range errs {
		var ve *imageresolve.ValidationError
		require.ErrorAs(t, e, &ve)
		require.ErrorIs(t, e, failure.ErrInvalid)
		f := failed{Field: ve.Field, Value: ve.Value, Layer: ve.Layer, Path: failure.FieldOf(e), Author: failure.AuthorOf(e)}
		for _, cause := range []error{imageresolve.ErrMissingField, imageresolve.ErrInvalidReference, imageresolve.ErrInvalidPullPolicy} {
			if errors.Is(ve, cause) {
				f.Cause = cause
			}
		}
		out = append(out, f)
	}
	return out
}

func TestResolveFailures(t *testing.T) {
	tests := []struct {
		name    string
		opts    imageresolve.Options
		decl    *v1alpha1.ImageSpec
		cluster *v1alpha1.ImageSpec
		want    []failed
	}{
		{
			name: "a missing repo is named",
			opts: imageresolve.Options{ProductName: "trino", Defaults: v1alpha1.ImageSpec{ProductVersion: "476"}},
			want: []failed{{Field: imageresolve.FieldRepo, Path: "spec.image.repo", Author: failure.AuthorUser, Cause: imageresolve.ErrMissingField}},
		},
		{
			name: "every missing field is reported at once, in field order",
			opts: imageresolve.Options{ProductName: "trino", PlatformName: "opkit"},
			decl: &v1alpha1.ImageSpec{PullSecretName: "s"},
			want: []failed{
				{Field: imageresolve.FieldRepo, Path: "spec.image.repo", Author: failure.AuthorUser, Cause: imageresolve.ErrMissingField},
				{Field: imageresolve.FieldProductVersion, Path: "spec.image.productVersion", Author: failure.AuthorUser, Cause: imageresolve.ErrMissingField},
				{Field: imageresolve.FieldPlatformVersion, Path: "spec.image.platformVersion", Author: failure.AuthorUser, Cause: imageresolve.ErrMissingField},
			},
		},
		{
			name: "a dev build's N/A platform version fails naming the field and the operator's defaults",
			opts: imageresolve.Options{ProductName: "trino", PlatformName: "opkit", Defaults: v1alpha1.ImageSpec{
				Repo: "quay.io/opkit", ProductVersion: "476", PlatformVersion: "N/A",
			}},
			want: []failed{{
				Field: imageresolve.FieldPlatformVersion, Value: "N/A", Layer: v1alpha1.LayerDefaults,
				Path: "defaults.image.platformVersion", Author: failure.AuthorOperator, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "a product version with a space fails naming the cluster as its source",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{ProductVersion: "476 beta"},
			want: []failed{{
				Field: imageresolve.FieldProductVersion, Value: "476 beta", Layer: v1alpha1.LayerCluster,
				Path: "spec.image.productVersion", Author: failure.AuthorUser, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "a declared product version may not start the tag with a dot, and is the operator's",
			opts: operator(),
			decl: &v1alpha1.ImageSpec{ProductVersion: ".476"},
			want: []failed{{
				Field: imageresolve.FieldProductVersion, Value: ".476", Layer: v1alpha1.LayerDeclaration,
				Path: "roles[coordinator].image.productVersion", Author: failure.AuthorOperator, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "an uppercase repository is blamed on repo",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{Repo: "quay.io/OpKit"},
			want: []failed{{
				Field: imageresolve.FieldRepo, Value: "quay.io/OpKit", Layer: v1alpha1.LayerCluster,
				Path: "spec.image.repo", Author: failure.AuthorUser, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "a repository carrying a tag is refused",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{Repo: "quay.io/opkit/trino:476"},
			want: []failed{{
				Field: imageresolve.FieldRepo, Value: "quay.io/opkit/trino:476", Layer: v1alpha1.LayerCluster,
				Path: "spec.image.repo", Author: failure.AuthorUser, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "an invalid product name is blamed on the operator's options",
			opts: imageresolve.Options{ProductName: "Trino", Defaults: v1alpha1.ImageSpec{Repo: "quay.io/opkit", ProductVersion: "476"}},
			want: []failed{{
				Field: imageresolve.FieldProductName, Value: "Trino", Layer: v1alpha1.LayerDefaults,
				Path: "defaults.productName", Author: failure.AuthorOperator, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "an invalid platform name is blamed on the operator's options",
			opts: imageresolve.Options{ProductName: "trino", PlatformName: "op/kit", Defaults: v1alpha1.ImageSpec{
				Repo: "quay.io/opkit", ProductVersion: "476", PlatformVersion: "0.2.0",
			}},
			want: []failed{{
				Field: imageresolve.FieldPlatformName, Value: "op/kit", Layer: v1alpha1.LayerDefaults,
				Path: "defaults.platformName", Author: failure.AuthorOperator, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "a tag longer than 128 characters blames the longer version",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{PlatformVersion: strings.Repeat("1", 120)},
			want: []failed{{
				Field: imageresolve.FieldPlatformVersion, Value: strings.Repeat("1", 120), Layer: v1alpha1.LayerCluster,
				Path: "spec.image.platformVersion", Author: failure.AuthorUser, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "an unknown pull policy fails on every path, naming its layer",
			opts: imageresolve.Options{},
			decl: &v1alpha1.ImageSpec{Custom: "example.com/own:1", PullPolicy: ptr.To(corev1.PullPolicy("Sometimes"))},
			want: []failed{{
				Field: imageresolve.FieldPullPolicy, Value: "Sometimes", Layer: v1alpha1.LayerDeclaration,
				Path: "roles[coordinator].image.pullPolicy", Author: failure.AuthorOperator, Cause: imageresolve.ErrInvalidPullPolicy,
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolve(tc.opts, tc.decl, tc.cluster)
			require.Error(t, err)
			if diff := cmp.Diff(tc.want, failures(t, err), cmpopts.EquateErrors()); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(imageresolve.Resolved{}, got); diff != "" {
				t.Errorf("a failed resolution returned a result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidationErrorMessages(t *testing.T) {
	tests := []struct {
		name string
		opts imageresolve.Options
		want string
	}{
		{
			name: "a missing field lists the layers consulted",
			opts: imageresolve.Options{ProductName: "trino", Defaults: v1alpha1.ImageSpec{Repo: "quay.io/opkit"}},
			want: "spec.image.productVersion: not set in the cluster resource's spec.image, " +
				"the role declaration's image or the operator's defaults",
		},
		{
			name: "a value from the defaults says it is not the user's",
			opts: imageresolve.Options{ProductName: "trino", PlatformName: "opkit", Defaults: v1alpha1.ImageSpec{
				Repo: "quay.io/opkit", ProductVersion: "476", PlatformVersion: "N/A",
			}},
			want: `defaults.image.platformVersion "N/A" (from the operator's defaults, not the cluster resource; spec.image.platformVersion overrides it): ` +
				`invalid image reference: tag "476-opkitN/A": invalid tag format: a tag must match [A-Za-z0-9_][A-Za-z0-9._-]{0,127}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resolve(tc.opts, nil, nil)
			require.Error(t, err)
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidationErrorWrapsTheParserError(t *testing.T) {
	opts := operator()
	_, err := resolve(opts, nil, &v1alpha1.ImageSpec{PlatformVersion: "N/A"})
	require.Error(t, err)
	if !errors.Is(err, reference.ErrTagInvalidFormat) {
		t.Errorf("errors.Is(err, reference.ErrTagInvalidFormat) = false for %v", err)
	}
	var ve *imageresolve.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("errors.As found no *ValidationError in %v", err)
	}
	if ve.Unwrap() != ve.Err { //nolint:errorlint // Unwrap returns the very error it holds
		t.Errorf("Unwrap does not return Err")
	}
}

func TestResolveRequiresTheRoleNameOfADeclaration(t *testing.T) {
	got, err := imageresolve.Resolve(operator(), imageresolve.Layers{Declaration: &v1alpha1.ImageSpec{Repo: "quay.io/x"}})
	require.ErrorIs(t, err, failure.ErrInvalid)
	require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
	require.Equal(t, "imageresolve.Layers.RoleName", failure.FieldOf(err))
	require.Equal(t, imageresolve.Resolved{}, got)

	_, err = imageresolve.Resolve(operator(), imageresolve.Layers{Cluster: &v1alpha1.ImageSpec{ProductVersion: "477"}})
	require.NoError(t, err, "without a declaration no role name is needed")
}
