package main

import (
	"strings"
	"testing"
)

// Sharding and leader election exclude each other, and a member needs the
// namespace of its ring's Leases; the refusal names the flags.
func TestFlagsCheck(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags flags
		want  string // in the error; "" means none
	}{
		{"neither", flags{}, ""},
		{"leader election", flags{leaderElect: true}, ""},
		{"sharded", flags{shardMember: "op-0", shardNamespace: "ops"}, ""},
		{"both", flags{shardMember: "op-0", shardNamespace: "ops", leaderElect: true}, "--shard-member and --leader-elect"},
		{"member without namespace", flags{shardMember: "op-0"}, "--shard-member needs --shard-namespace"},
		{"namespace without member", flags{shardNamespace: "ops"}, "--shard-namespace is set but --shard-member is not"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.flags.check()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("check() = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("check() = %v, want an error naming %q", err, tc.want)
			}
		})
	}
}
