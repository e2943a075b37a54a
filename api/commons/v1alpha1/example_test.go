package v1alpha1_test

import (
	"encoding/json"
	"fmt"

	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// A product's spec embeds ClusterSpec inline, so the common fields sit at
// the top level of spec beside the product's own.
func Example() {
	type ZooKeeperClusterSpec struct {
		v1alpha1.ClusterSpec `json:",inline"`
		// ClientPort is a product-specific field.
		ClientPort int32 `json:"clientPort,omitempty"`
	}

	spec := ZooKeeperClusterSpec{
		ClusterSpec: v1alpha1.ClusterSpec{
			Image: &v1alpha1.ImageSpec{ProductVersion: "3.9.2"},
			Roles: map[string]v1alpha1.RoleSpec{
				"server": {RoleGroups: map[string]v1alpha1.RoleGroupSpec{
					"default": {Replicas: ptr.To[int32](3)},
				}},
			},
		},
		ClientPort: 2181,
	}
	out, _ := json.Marshal(spec)
	fmt.Println(string(out))
	// Output:
	// {"image":{"productVersion":"3.9.2"},"roles":{"server":{"roleGroups":{"default":{"replicas":3}}}},"clientPort":2181}
}
