package shard_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/shard"
)

// A ring of three replicas gives every resource one owner; when a fourth
// joins, a resource either keeps its owner or moves to the newcomer.
func ExampleRing() {
	gk := schema.GroupKind{Group: "sample.opkit.dev", Kind: "SampleCluster"}
	three := shard.NewRing([]string{"op-0", "op-1", "op-2"}, 0)
	four := shard.NewRing([]string{"op-0", "op-1", "op-2", "op-3"}, 0)
	for _, name := range []string{"kafka", "trino", "zookeeper"} {
		key := shard.Key(gk, "analytics", name)
		fmt.Printf("%s: %s, then %s\n", name, three.Owner(key), four.Owner(key))
	}
	// Output:
	// kafka: op-1, then op-1
	// trino: op-2, then op-2
	// zookeeper: op-1, then op-3
}
