// Package servertest proves the api module's CRD types against a real API
// server: the generated CRDs of S3Connection, S3Bucket and
// AuthenticationClass, and a product-like kind (package consumer/v1alpha1)
// embedding every shared type, each CEL rule, enum and bound accepted and
// refused as documented.
package servertest
