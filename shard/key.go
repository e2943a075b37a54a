package shard

import "k8s.io/apimachinery/pkg/runtime/schema"

// Key is the ring key of a resource: its API group, kind, namespace and
// name. The version is left out so that a resource keeps its owner across
// API versions; the UID is left out so that a resource recreated under the
// same name lands on the same member.
func Key(gk schema.GroupKind, namespace, name string) string {
	return gk.Group + "/" + gk.Kind + "/" + namespace + "/" + name
}
