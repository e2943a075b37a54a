package apply

import (
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/opkit-dev/opkit/api/inventory"
)

// Versions the inventory records are forgotten once older than
// expectationTTL, on a later write or read alike; versions it does not
// record stay as long as the object is managed.
func TestKnownVersionsExpire(t *testing.T) {
	key := func(name string) inventory.Key { return inventory.Key{Kind: "ConfigMap", Namespace: "ns", Name: name} }
	tests := []struct {
		name string
		// then is the call made after expectationTTL passed.
		then func(k *knownVersions)
	}{
		{name: "a read", then: func(k *knownVersions) { k.get(key("other")) }},
		{name: "a write", then: func(k *knownVersions) { k.set(key("other"), knownVersion{uid: "u9", resourceVersion: "9"}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktesting.NewFakePassiveClock(time.Unix(1_000_000, 0))
			k := &knownVersions{clock: clock}
			k.set(key("recorded"), knownVersion{uid: "u1", resourceVersion: "5", recorded: true})
			k.set(key("revert"), knownVersion{uid: "u2", resourceVersion: "6"})

			clock.SetTime(clock.Now().Add(expectationTTL / 2))
			tt.then(k)
			if _, ok := k.get(key("recorded")); !ok {
				t.Fatal("a recorded version was forgotten before expectationTTL")
			}

			clock.SetTime(clock.Now().Add(expectationTTL))
			tt.then(k)
			if _, ok := k.m[key("recorded")]; ok {
				t.Error("the recorded version outlived expectationTTL")
			}
			if v, ok := k.m[key("revert")]; !ok || v.resourceVersion != "6" {
				t.Errorf("the unrecorded version = %+v, %v; want version 6 kept", v, ok)
			}
		})
	}
}
