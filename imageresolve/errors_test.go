package imageresolve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/distribution/reference"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
)

// failure is the comparable part of a *ValidationError.
type failure struct {
	Field  string
	Value  string
	Source imageresolve.Source
	Cause  error
}

// failures flattens a (possibly joined) error into its ValidationErrors.
func failures(t *testing.T, err error) []failure {
	t.Helper()
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []failure
	for _, e := range errs {
		var ve *imageresolve.ValidationError
		require.ErrorAs(t, e, &ve)
		f := failure{Field: ve.Field, Value: ve.Value, Source: ve.Source}
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
		cluster *v1alpha1.ImageSpec
		role    *v1alpha1.ImageSpec
		want    []failure
	}{
		{
			name: "a missing repo is named",
			opts: imageresolve.Options{ProductName: "trino", Defaults: v1alpha1.ImageSpec{ProductVersion: "476"}},
			want: []failure{{Field: imageresolve.FieldRepo, Cause: imageresolve.ErrMissingField}},
		},
		{
			name: "every missing field is reported at once, in field order",
			opts: imageresolve.Options{ProductName: "trino", PlatformName: "opkit"},
			role: &v1alpha1.ImageSpec{PullSecretName: "s"},
			want: []failure{
				{Field: imageresolve.FieldRepo, Cause: imageresolve.ErrMissingField},
				{Field: imageresolve.FieldProductVersion, Cause: imageresolve.ErrMissingField},
				{Field: imageresolve.FieldPlatformVersion, Cause: imageresolve.ErrMissingField},
			},
		},
		{
			name: "a dev build's N/A platform version fails naming the field and the operator's defaults",
			opts: imageresolve.Options{ProductName: "trino", PlatformName: "opkit", Defaults: v1alpha1.ImageSpec{
				Repo: "quay.io/opkit", ProductVersion: "476", PlatformVersion: "N/A",
			}},
			want: []failure{{
				Field: imageresolve.FieldPlatformVersion, Value: "N/A",
				Source: imageresolve.SourceDefaults, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "a product version with a space fails naming the cluster as its source",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{ProductVersion: "476 beta"},
			want: []failure{{
				Field: imageresolve.FieldProductVersion, Value: "476 beta",
				Source: imageresolve.SourceCluster, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "a product version may not start the tag with a dot",
			opts: operator(),
			role: &v1alpha1.ImageSpec{ProductVersion: ".476"},
			want: []failure{{
				Field: imageresolve.FieldProductVersion, Value: ".476",
				Source: imageresolve.SourceRole, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "an uppercase repository is blamed on repo",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{Repo: "quay.io/OpKit"},
			want: []failure{{
				Field: imageresolve.FieldRepo, Value: "quay.io/OpKit",
				Source: imageresolve.SourceCluster, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "a repository carrying a tag is refused",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{Repo: "quay.io/opkit/trino:476"},
			want: []failure{{
				Field: imageresolve.FieldRepo, Value: "quay.io/opkit/trino:476",
				Source: imageresolve.SourceCluster, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "an invalid product name is blamed on the operator's options",
			opts: imageresolve.Options{ProductName: "Trino", Defaults: v1alpha1.ImageSpec{Repo: "quay.io/opkit", ProductVersion: "476"}},
			want: []failure{{
				Field: imageresolve.FieldProductName, Value: "Trino",
				Source: imageresolve.SourceOptions, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "an invalid platform name is blamed on the operator's options",
			opts: imageresolve.Options{ProductName: "trino", PlatformName: "op/kit", Defaults: v1alpha1.ImageSpec{
				Repo: "quay.io/opkit", ProductVersion: "476", PlatformVersion: "0.2.0",
			}},
			want: []failure{{
				Field: imageresolve.FieldPlatformName, Value: "op/kit",
				Source: imageresolve.SourceOptions, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name:    "a tag longer than 128 characters blames the longer version",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{PlatformVersion: strings.Repeat("1", 120)},
			want: []failure{{
				Field: imageresolve.FieldPlatformVersion, Value: strings.Repeat("1", 120),
				Source: imageresolve.SourceCluster, Cause: imageresolve.ErrInvalidReference,
			}},
		},
		{
			name: "an unknown pull policy fails on every path, naming its layer",
			opts: imageresolve.Options{},
			role: &v1alpha1.ImageSpec{Custom: "example.com/own:1", PullPolicy: ptr.To(corev1.PullPolicy("Sometimes"))},
			want: []failure{{
				Field: imageresolve.FieldPullPolicy, Value: "Sometimes",
				Source: imageresolve.SourceRole, Cause: imageresolve.ErrInvalidPullPolicy,
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := imageresolve.Resolve(tc.opts, tc.cluster, tc.role)
			require.Error(t, err)
			if diff := cmp.Diff(tc.want, failures(t, err), cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
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
			want: `spec.image.platformVersion "N/A" (from the operator's defaults, not the cluster resource): ` +
				`invalid image reference: tag "476-opkitN/A": invalid tag format: a tag must match [A-Za-z0-9_][A-Za-z0-9._-]{0,127}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := imageresolve.Resolve(tc.opts, nil, nil)
			require.Error(t, err)
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidationErrorWrapsTheParserError(t *testing.T) {
	opts := operator()
	_, err := imageresolve.Resolve(opts, &v1alpha1.ImageSpec{PlatformVersion: "N/A"}, nil)
	require.Error(t, err)
	if !errors.Is(err, reference.ErrTagInvalidFormat) {
		t.Errorf("errors.Is(err, reference.ErrTagInvalidFormat) = false for %v", err)
	}
	var ve *imageresolve.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("errors.As found no *ValidationError in %v", err)
	}
	if ve.Unwrap() != ve.Err {
		t.Errorf("Unwrap does not return Err")
	}
}
