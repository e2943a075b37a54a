package orphan_test

import (
	"fmt"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
)

// After a pass, the caller drops the reclaimed groups from its ledger and
// keeps everything else, pending groups included.
func ExamplePrune() {
	ledger := []v1alpha1.RoleGroupRef{
		{Role: "broker", Group: "default"},
		{Role: "broker", Group: "old"},
		{Role: "controller", Group: "default"},
	}
	res := orphan.Result{Reclaimed: []v1alpha1.RoleGroupRef{{Role: "broker", Group: "old"}}}
	for _, ref := range orphan.Prune(ledger, res.Reclaimed) {
		fmt.Println(ref.Role + "/" + ref.Group)
	}
	// Output:
	// broker/default
	// controller/default
}
