// Package servertest proves module secretvolume against a real API server:
// the ephemeral volumes it builds are accepted in pods and StatefulSets of
// a namespace enforcing the restricted Pod Security profile, and a pod
// override that would displace a secret mount is refused by the
// StatefulSet builder.
package servertest
