package s3_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/failure"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	"github.com/opkit-dev/opkit/s3"
)

func TestResolveInline(t *testing.T) {
	conn := &s3v1alpha1.ConnectionSpec{Host: "minio", Port: ptr.To[int32](9000)}
	got, err := s3.Resolve(t.Context(), nil, "data", s3v1alpha1.BucketSource{Inline: &s3v1alpha1.BucketSpec{
		BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{Inline: conn}}}, "spec.warehouse", s3.ResolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &s3.Bucket{Name: "warehouse", Connection: *conn, Field: "spec.warehouse.inline",
		ConnectionField: "spec.warehouse.inline.connection.inline"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bucket (-want +got):\n%s", diff)
	}
	*conn.Port = 1
	if *got.Connection.Port != 9000 {
		t.Error("the resolved connection shares memory with the source")
	}
}

func TestResolveRefusesWhatNamesNothingOrTooMuch(t *testing.T) {
	inlineConn := s3v1alpha1.ConnectionSource{Inline: &s3v1alpha1.ConnectionSpec{Host: "minio"}}
	tests := []struct {
		name  string
		src   s3v1alpha1.BucketSource
		field string
	}{
		{"nothing", s3v1alpha1.BucketSource{}, "spec.warehouse"},
		{"an empty reference", s3v1alpha1.BucketSource{Reference: ptr.To("")}, "spec.warehouse"},
		{"both", s3v1alpha1.BucketSource{Reference: ptr.To("b"), Inline: &s3v1alpha1.BucketSpec{BucketName: "b", Connection: inlineConn}}, "spec.warehouse"},
		{"no bucket name", s3v1alpha1.BucketSource{Inline: &s3v1alpha1.BucketSpec{Connection: inlineConn}}, "spec.warehouse.inline.bucketName"},
		{"no connection", s3v1alpha1.BucketSource{Inline: &s3v1alpha1.BucketSpec{BucketName: "b"}}, "spec.warehouse.inline.connection"},
		{"both connections", s3v1alpha1.BucketSource{Inline: &s3v1alpha1.BucketSpec{BucketName: "b",
			Connection: s3v1alpha1.ConnectionSource{Inline: inlineConn.Inline, Reference: ptr.To("c")}}}, "spec.warehouse.inline.connection"},
		{"a connection without host", s3v1alpha1.BucketSource{Inline: &s3v1alpha1.BucketSpec{BucketName: "b",
			Connection: s3v1alpha1.ConnectionSource{Inline: &s3v1alpha1.ConnectionSpec{}}}}, "spec.warehouse.inline.connection.inline.host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s3.Resolve(t.Context(), nil, "data", tt.src, "spec.warehouse", s3.ResolveOptions{})
			if !errors.Is(err, failure.ErrInvalid) || failure.AuthorOf(err) != failure.AuthorUser {
				t.Fatalf("want the user's invalid input, got %v", err)
			}
			if got := failure.FieldOf(err); got != tt.field {
				t.Errorf("field %q, want %q (%v)", got, tt.field, err)
			}
		})
	}
}
