// Package imageresolve turns the image a product cluster asks for into a
// validated image reference, a pull policy, a pull secret and the value of
// the app.kubernetes.io/version label.
//
// Three layers are folded, lowest precedence first, named with the shared
// commonsv1alpha1.Layer vocabulary: the operator's defaults (Options, the
// defaults layer), the image the operator declares for the role (the
// declaration layer), then the cluster resource's spec.image (the cluster
// layer, the user's). A cluster that states only productVersion therefore
// still gets the operator's repository and platform version.
//
//	opts := imageresolve.Options{
//		ProductName:  "zookeeper",
//		PlatformName: "opkit",
//		Defaults: v1alpha1.ImageSpec{
//			Repo: "quay.io/opkit", ProductVersion: "3.9.2", PlatformVersion: "0.2.0",
//		},
//	}
//	img, err := imageresolve.Resolve(opts, imageresolve.Layers{
//		RoleName: "server", Declaration: declaration.Image, Cluster: cluster.Spec.Image,
//	})
//	// img.Reference == "quay.io/opkit/zookeeper:3.9.2-opkit0.2.0"
//
// The image is decided by the highest layer that names it (states custom,
// repo, productVersion or platformVersion). When that layer states custom,
// the reference is used verbatim and labelled with the version that layer
// states beside it. Otherwise the reference is <repo>/<product>:<tag>, each
// part folded per field, where the tag is the product version followed by
// "-<platform name><platform version>" when the operator names a platform;
// a custom reference in a lower layer is then not used, so an operator's
// declaration never beats an image field the user stated.
//
// An assembled reference is validated with github.com/distribution/reference,
// so a value that would only fail later as InvalidImageName on a pod (a dev
// build's "N/A" platform version, say) fails here, as a *ValidationError in
// the class failure.ErrInvalid that names the field at its absolute path and
// blames the author of the layer the value came from.
//
// Resolution is pure and deterministic: no I/O, no clock, no globals.
package imageresolve
