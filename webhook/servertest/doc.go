// Package servertest proves module webhook against a real API server with
// a real webhook configuration and serving certificate (testkit/webhooks):
// the reconciler's checks refuse a cluster resource at admission naming
// the field the user wrote, defaulting never stores what the reconciler
// derives, and a product using an S3 bucket by reference, TLS from a secret
// class and an external listener (package lakehouse/v1alpha1) is admitted,
// reconciled, and its StatefulSet's pods pass the restricted Pod Security
// profile.
package servertest
