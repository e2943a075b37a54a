// Package imageresolve turns the image a product cluster asks for into a
// validated image reference, a pull policy, a pull secret and the value of
// the app.kubernetes.io/version label.
//
// Three layers are folded field by field, the first that states a field
// winning: the cluster resource's spec.image, the role declaration's image,
// then Options.Defaults, the operator's own defaults. A cluster that states
// only productVersion therefore still gets the operator's repository and
// platform version.
//
//	opts := imageresolve.Options{
//		ProductName:  "zookeeper",
//		PlatformName: "opkit",
//		Defaults: v1alpha1.ImageSpec{
//			Repo: "quay.io/opkit", ProductVersion: "3.9.2", PlatformVersion: "0.2.0",
//		},
//	}
//	img, err := imageresolve.Resolve(opts, cluster.Spec.Image, declaration.Image)
//	// img.Reference == "quay.io/opkit/zookeeper:3.9.2-opkit0.2.0"
//
// A folded custom reference is used verbatim. Otherwise the reference is
// <repo>/<product>:<tag>, where the tag is the product version, followed by
// "-<platform name><platform version>" when the operator names a platform.
// The reference is validated with github.com/distribution/reference, so a
// value that would only fail later as InvalidImageName on a pod (a dev
// build's "N/A" platform version, say) fails here, as a *ValidationError
// naming the field and the layer the value came from.
//
// Resolution is pure and deterministic: no I/O, no clock, no globals.
package imageresolve
