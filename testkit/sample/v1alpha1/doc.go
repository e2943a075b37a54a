// Package v1alpha1 defines SampleCluster (group sample.opkit.dev), a minimal
// product cluster kind built only from the types every product embeds from
// github.com/opkit-dev/opkit/api/commons/v1alpha1. Tests use it to create
// real cluster resources against a real API server, with the validation,
// defaulting and pruning a product CRD gets from those types.
//
// Register it on a scheme with AddToScheme and install its CRD from package
// [github.com/opkit-dev/opkit/testkit/sample]:
//
//	scheme := runtime.NewScheme()
//	_ = clientgoscheme.AddToScheme(scheme)
//	_ = samplev1alpha1.AddToScheme(scheme)
//	env := &testkit.Env{Options: controlplane.Options{Scheme: scheme, CRDs: sample.MustCRDs()}}
//
// +kubebuilder:object:generate=true
// +groupName=sample.opkit.dev
package v1alpha1

//go:generate ../../../hack/controller-gen.sh object crd paths=./... output:crd:artifacts:config=../crd
