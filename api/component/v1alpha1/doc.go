// Package v1alpha1 holds the types a component custom resource embeds so
// that the component reconciler (package
// github.com/opkit-dev/opkit/reconciler/component) can drive it: the
// Status the reconciler owns, ready-made spec blocks for the optional
// behaviours (placement, remote target, impersonation, suspension,
// intervals, timeout, policies, additional managed types), and references
// to ConfigMaps and Secrets whose data the reconciler loads before
// rendering.
//
// A component type embeds the blocks it wants inline in its spec and the
// Status inline in its status:
//
//	type WebShopSpec struct {
//		v1alpha1.PlacementSpec  `json:",inline"`
//		v1alpha1.SuspensionSpec `json:",inline"`
//		v1alpha1.TimeoutSpec    `json:",inline"`
//
//		Replicas    int                         `json:"replicas,omitempty"`
//		Credentials *v1alpha1.SecretKeyReference `json:"credentials,omitempty"`
//	}
//
//	type WebShopStatus struct {
//		v1alpha1.Status `json:",inline"`
//	}
//
//	func (s *WebShop) GetSpec() any                 { return &s.Spec }
//	func (s *WebShop) GetStatus() *v1alpha1.Status { return &s.Status.Status }
//
// The embedded blocks bring their methods (GetTargetNamespace, IsSuspended,
// GetTimeout, …) to the spec type, which is how the reconciler finds them.
//
// +kubebuilder:object:generate=true
package v1alpha1

//go:generate ../../../hack/controller-gen.sh object paths=./...
