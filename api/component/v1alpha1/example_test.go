package v1alpha1_test

import (
	"fmt"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
)

// The reconciler loads what a reference names and adds it to the
// generator's parameters beside the reference's own fields.
func ExampleSecretKeyReference() {
	ref := &componentv1alpha1.SecretKeyReference{Name: "db", Key: "password"}
	fmt.Println(ref.Referenced())

	ref.Load(map[string][]byte{"password": []byte("s3cr3t")}, true)
	fmt.Println(ref.Found(), ref.Resolved())

	ref.Load(map[string][]byte{"user": []byte("shop")}, true)
	fmt.Println(ref.Found())
	// Output:
	// {Secret db password}
	// true map[value:s3cr3t]
	// false
}

// Spec blocks embedded in a component's spec bring their methods along.
func ExampleSuspensionSpec() {
	type spec struct {
		componentv1alpha1.SuspensionSpec `json:",inline"`
		componentv1alpha1.PlacementSpec  `json:",inline"`
	}
	s := &spec{}
	s.Suspend = true
	s.Namespace = "shop"
	fmt.Println(s.IsSuspended(), s.GetTargetNamespace())
	// Output: true shop
}
