package shard_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/shard"
)

// A ring of three replicas gives every resource one owner, through its
// bucket; when a fourth joins, a resource either keeps its owner or moves
// to the newcomer, and its bucket stays.
func ExampleRing() {
	gk := schema.GroupKind{Group: "sample.opkit.dev", Kind: "SampleCluster"}
	three := shard.NewRing([]string{"op-0", "op-1", "op-2"}, 0)
	four := shard.NewRing([]string{"op-0", "op-1", "op-2", "op-3"}, 0)
	for _, name := range []string{"kafka", "superset", "trino"} {
		key := shard.Key(gk, "analytics", name)
		fmt.Printf("%s (bucket %d): %s, then %s\n", name, shard.Bucket(key), three.Owner(key), four.Owner(key))
	}
	// Output:
	// kafka (bucket 364): op-0, then op-0
	// superset (bucket 916): op-2, then op-3
	// trino (bucket 292): op-2, then op-2
}
