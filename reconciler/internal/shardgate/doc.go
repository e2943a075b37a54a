// Package shardgate lets a reconciler work on one replica's share of its
// resources: it runs a pass only when the replica owns the resource, as a
// sharding member (the shard module's Member) says.
package shardgate
