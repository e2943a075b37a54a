// Package v1alpha1 defines Lakehouse (group lakehouse.test.opkit.dev), a
// product kind for tests that uses the platform types: a warehouse bucket
// (inline or by reference), server TLS from a secret class and a listener
// class per role, beside the common cluster spec.
//
// +kubebuilder:object:generate=true
// +groupName=lakehouse.test.opkit.dev
package v1alpha1

//go:generate ../../../../hack/controller-gen.sh object crd paths=./... output:crd:artifacts:config=../crd
