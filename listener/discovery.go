package listener

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/builders"
)

// Join returns the addresses as "host:port" joined by commas, the
// connection string most clients take.
func Join(addrs []Address) string {
	parts := make([]string, len(addrs))
	for i, a := range addrs {
		parts[i] = a.String()
	}
	return strings.Join(parts, ",")
}

// URLs returns one URL per address: scheme "://" host:port path.
func URLs(scheme string, addrs []Address, path string) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = scheme + "://" + a.String() + path
	}
	return out
}

// DiscoveryConfigMap builds the ConfigMap a product publishes for its
// clients: named after scope (the cluster's name for the cluster scope,
// which is what clients are told to look up), with scope's labels and
// data, verbatim. Apply it with the cluster's other objects (the product
// reconciler's ClusterObjects).
func DiscoveryConfigMap(scope builders.Scope, data map[string]string) (*corev1.ConfigMap, error) {
	return builders.NewConfigMap(scope).WithData(data).Build()
}
