package s3

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
)

// DefaultNotFoundRetry is how soon a pass waiting for a referenced object
// looks again, unless ResolveOptions says otherwise. Creating the object
// also triggers a pass when the product watches the kind.
const DefaultNotFoundRetry = 15 * time.Second

// ResolveOptions tunes Resolve. The zero value uses the defaults.
type ResolveOptions struct {
	// NotFoundRetry is the delay of a *NotFoundError. Zero means
	// DefaultNotFoundRetry.
	NotFoundRetry time.Duration
}

// Bucket is a resolved bucket: the values to use and where each was
// written, for messages.
type Bucket struct {
	// Name is the bucket's name on the endpoint.
	Name string
	// Connection is the endpoint, copied from wherever it was stated.
	Connection s3v1alpha1.ConnectionSpec
	// Field is where the bucket was stated: the source's field for an
	// inline bucket ("spec.warehouse.inline"), or the S3Bucket
	// ("S3Bucket <namespace>/<name>").
	Field string
	// ConnectionField is where the connection was stated, in the same
	// manner.
	ConnectionField string
}

// Resolve returns the bucket src states in namespace, reading an S3Bucket
// and an S3Connection through reader where src refers to them. field is
// src's absolute path (such as "spec.warehouse"). reader may be nil when
// everything is inline.
//
// A source or connection that states neither or both of inline and
// reference is an error of class failure.ErrInvalid naming the field; a
// referenced object that does not exist is a *NotFoundError
// (failure.ErrRequeue); other read errors are classified by
// apierr.Classify and wrapped.
func Resolve(ctx context.Context, reader client.Reader, namespace string, src s3v1alpha1.BucketSource, field string, opts ResolveOptions) (*Bucket, error) {
	b := &Bucket{}
	var spec *s3v1alpha1.BucketSpec
	switch {
	case src.Inline != nil && src.Reference != nil:
		return nil, invalid(field, "set exactly one of inline and reference, not both")
	case src.Inline != nil:
		spec, b.Field = src.Inline, field+".inline"
	case src.Reference != nil && *src.Reference != "":
		obj := &s3v1alpha1.S3Bucket{}
		if err := get(ctx, reader, namespace, *src.Reference, field+".reference", "S3Bucket", obj, opts); err != nil {
			return nil, err
		}
		spec, b.Field = &obj.Spec, objectField("S3Bucket", namespace, *src.Reference)
	default:
		return nil, invalid(field, "names no bucket: set inline or reference")
	}
	if spec.BucketName == "" {
		return nil, invalid(b.Field+".bucketName", "is empty")
	}
	b.Name = spec.BucketName
	conn, connField, err := resolveConnection(ctx, reader, namespace, spec.Connection, b.Field+".connection", opts)
	if err != nil {
		return nil, err
	}
	b.Connection, b.ConnectionField = *conn, connField
	return b, nil
}

// ResolveConnection returns the connection src states in namespace, like
// Resolve does for a bucket, and where it was stated.
func ResolveConnection(ctx context.Context, reader client.Reader, namespace string, src s3v1alpha1.ConnectionSource, field string, opts ResolveOptions) (*s3v1alpha1.ConnectionSpec, string, error) {
	return resolveConnection(ctx, reader, namespace, src, field, opts)
}

func resolveConnection(ctx context.Context, reader client.Reader, namespace string, src s3v1alpha1.ConnectionSource, field string, opts ResolveOptions) (*s3v1alpha1.ConnectionSpec, string, error) {
	var spec *s3v1alpha1.ConnectionSpec
	var at string
	switch {
	case src.Inline != nil && src.Reference != nil:
		return nil, "", invalid(field, "set exactly one of inline and reference, not both")
	case src.Inline != nil:
		spec, at = src.Inline, field+".inline"
	case src.Reference != nil && *src.Reference != "":
		obj := &s3v1alpha1.S3Connection{}
		if err := get(ctx, reader, namespace, *src.Reference, field+".reference", "S3Connection", obj, opts); err != nil {
			return nil, "", err
		}
		spec, at = &obj.Spec, objectField("S3Connection", namespace, *src.Reference)
	default:
		return nil, "", invalid(field, "names no connection: set inline or reference")
	}
	if err := validateConnection(spec, at); err != nil {
		return nil, "", err
	}
	return spec.DeepCopy(), at, nil
}

// get reads name into obj, turning NotFound into a *NotFoundError.
func get(ctx context.Context, reader client.Reader, namespace, name, field, kind string, obj client.Object, opts ResolveOptions) error {
	if reader == nil {
		return fmt.Errorf("%s: reading %s %s/%s: no reader given", field, kind, namespace, name)
	}
	err := reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, obj)
	switch {
	case apierrors.IsNotFound(err):
		after := opts.NotFoundRetry
		if after == 0 {
			after = DefaultNotFoundRetry
		}
		return &NotFoundError{Kind: kind, Namespace: namespace, Name: name, Field: field, After: after, Err: err}
	case err != nil:
		return fmt.Errorf("%s: reading %s %s/%s: %w", field, kind, namespace, name, apierr.Classify(err))
	}
	return nil
}

// objectField names the spec of an object the user wrote apart from the
// cluster resource.
func objectField(kind, namespace, name string) string {
	return kind + " " + namespace + "/" + name + " spec"
}

// validateConnection checks what the CRD cannot: that the connection
// states a host at all (a connection from an older CRD, or built in code).
func validateConnection(c *s3v1alpha1.ConnectionSpec, field string) error {
	if c.Host == "" {
		return invalid(field+".host", "is empty")
	}
	return nil
}
