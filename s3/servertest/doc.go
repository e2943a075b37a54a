// Package servertest proves module s3 against a real API server: buckets
// and connections resolved by reference from real S3Bucket and
// S3Connection objects, a missing one waited for rather than failed, read
// errors classified, and the wired volumes accepted under the restricted
// Pod Security profile.
package servertest
