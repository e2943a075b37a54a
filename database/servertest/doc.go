// Package servertest proves module database against a real API server:
// the credentials environment and the CA volume Wire produces are accepted
// in a StatefulSet of a namespace enforcing the restricted Pod Security
// profile.
package servertest
