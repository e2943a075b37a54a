package webhook_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/webhook"
)

// The checks a validating webhook runs, on a resource with a typo'd role
// and a misspelt affinity: each is refused at the path the user wrote.
// SetupWithManager serves the same checks; Check runs them directly.
func Example() {
	wh, err := webhook.New(webhook.Options[*cluster]{Reconciler: config()})
	if err != nil {
		fmt.Println(err)
		return
	}
	cr := newCluster(func(s *commonsv1alpha1.ClusterSpec) {
		g := s.Roles["server"].RoleGroups["default"]
		g.Config = &commonsv1alpha1.RoleGroupConfigSpec{Affinity: &runtime.RawExtension{Raw: []byte(`{"nodeAffinty":{}}`)}}
		setGroup(s, "server", g)
	}, "server", "serer")
	_, err = wh.ValidateCreate(context.Background(), cr)
	fmt.Println(err)
	// Output:
	// SampleCluster.sample.opkit.dev "prod" is invalid: [spec.roles.serer: Invalid value: the product has no role "serer"; did you mean "server"? (roles: "gateway", "server"), spec.roles.server.roleGroups.default.config.affinity.nodeAffinty: Invalid value: unknown field]
}
