package imageresolve_test

import (
	"errors"
	"fmt"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
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
	cluster := &v1alpha1.ImageSpec{ProductVersion: "477"}
	role := &v1alpha1.ImageSpec{PullSecretName: "registry"}

	img, err := imageresolve.Resolve(opts, cluster, role)
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

// A development build whose platform version is "N/A" fails here, naming
// the field and where the value came from, rather than on a pod as
// InvalidImageName.
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
	_, err := imageresolve.Resolve(opts, nil, nil)

	var invalid *imageresolve.ValidationError
	if errors.As(err, &invalid) {
		fmt.Println(invalid.Field, invalid.Source)
	}
	// Output:
	// spec.image.platformVersion the operator's defaults
}
