package imageresolve_test

import (
	"errors"
	"fmt"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/imageresolve"
)

// A cluster that states only a product version gets the operator's
// repository and platform version; the role declaration supplies the pull
// secret.
func ExampleResolve() {
	opts := imageresolve.Options{
		ProductName:  "trino",
		PlatformName: "opkit",
		Defaults: v1alpha1.ImageSpec{
			Repo:            "quay.io/opkit",
			ProductVersion:  "476",
			PlatformVersion: "0.2.0",
		},
	}
	img, err := imageresolve.Resolve(opts, imageresolve.Layers{
		RoleName:    "coordinator",
		Declaration: &v1alpha1.ImageSpec{PullSecretName: "registry"},
		Cluster:     &v1alpha1.ImageSpec{ProductVersion: "477"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Reference)
	fmt.Println(img.PullPolicy, img.PullSecretName, img.ProductVersion)
	// Output:
	// quay.io/opkit/trino:477-opkit0.2.0
	// IfNotPresent registry 477
}

// A role declaration may pin its own image with custom, but a user who
// states any image field in spec.image wins: the declaration's reference is
// then not used, and the version label describes the image that is.
func ExampleResolve_declaredCustom() {
	opts := imageresolve.Options{
		ProductName:  "trino",
		PlatformName: "opkit",
		Defaults:     v1alpha1.ImageSpec{Repo: "quay.io/opkit", ProductVersion: "476", PlatformVersion: "0.2.0"},
	}
	worker := &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:476", ProductVersion: "476"}

	pinned, _ := imageresolve.Resolve(opts, imageresolve.Layers{RoleName: "worker", Declaration: worker})
	fmt.Println(pinned.Reference, pinned.ProductVersion)

	upgraded, _ := imageresolve.Resolve(opts, imageresolve.Layers{
		RoleName: "worker", Declaration: worker, Cluster: &v1alpha1.ImageSpec{ProductVersion: "477"},
	})
	fmt.Println(upgraded.Reference, upgraded.ProductVersion)
	// Output:
	// quay.io/opkit/trino-worker:476 476
	// quay.io/opkit/trino:477-opkit0.2.0 477
}

// A development build whose platform version is "N/A" fails here, naming
// the field and whose it is, rather than on a pod as InvalidImageName.
func ExampleValidationError() {
	opts := imageresolve.Options{
		ProductName:  "trino",
		PlatformName: "opkit",
		Defaults: v1alpha1.ImageSpec{
			Repo:            "quay.io/opkit",
			ProductVersion:  "476",
			PlatformVersion: "N/A",
		},
	}
	_, err := imageresolve.Resolve(opts, imageresolve.Layers{})

	fmt.Println(failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err))
	var invalid *imageresolve.ValidationError
	if errors.As(err, &invalid) {
		fmt.Println(invalid.Layer, invalid.Value)
	}
	// Output:
	// invalid operator defaults.image.platformVersion
	// defaults N/A
}
