// Package shard spreads an operator's resources over its replicas.
package shard
