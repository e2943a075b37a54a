package v1alpha1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PlacementSpec says where the objects go: their default namespace and the
// name the generator renders them for. Empty fields mean the component's
// own namespace and name.
type PlacementSpec struct {
	// Namespace is the namespace of the rendered objects that do not name
	// one. Empty means the component's namespace.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Namespace string `json:"namespace,omitempty"`
	// Name is the name the objects are rendered for (a Helm release name,
	// say). Empty means the component's name.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name,omitempty"`
}

// GetTargetNamespace returns Namespace.
func (s *PlacementSpec) GetTargetNamespace() string { return s.Namespace }

// GetTargetName returns Name.
func (s *PlacementSpec) GetTargetName() string { return s.Name }

// ClientSpec points at another cluster: the objects are applied there
// instead of in the component's own cluster.
type ClientSpec struct {
	// KubeConfig names the Secret key holding the kubeconfig of the target
	// cluster. Unset means the component's own cluster.
	// +optional
	KubeConfig *KubeConfigSpec `json:"kubeConfig,omitempty"`
}

// KubeConfigSpec names a kubeconfig.
type KubeConfigSpec struct {
	// SecretRef is the Secret key, in the component's namespace, holding
	// the kubeconfig. A missing Secret or key fails every pass, deletions
	// included: deleting against another cluster would leave the remote
	// objects behind.
	SecretRef SecretKeyReference `json:"secretRef" opkit:"notFound=fail"`
}

// GetKubeConfig returns the loaded kubeconfig, nil when none is set.
func (s *ClientSpec) GetKubeConfig() []byte {
	if s.KubeConfig == nil {
		return nil
	}
	return s.KubeConfig.SecretRef.Value()
}

// ImpersonationSpec names the service account, in the component's
// namespace, whose permissions the objects are applied with.
type ImpersonationSpec struct {
	// ServiceAccountName is the service account to impersonate. Empty means
	// the operator's default.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
}

// GetServiceAccountName returns ServiceAccountName.
func (s *ImpersonationSpec) GetServiceAccountName() string { return s.ServiceAccountName }

// SuspensionSpec lets the component's author stop the reconciliation: a
// suspended component keeps its objects as they are.
type SuspensionSpec struct {
	// Suspend stops applying changes while true. Deletion is not suspended.
	// +optional
	Suspend bool `json:"suspend,omitempty"`
}

// IsSuspended returns Suspend.
func (s *SuspensionSpec) IsSuspended() bool { return s.Suspend }

// RequeueSpec sets how often a ready component is reconciled again.
type RequeueSpec struct {
	// RequeueInterval is the time between passes of a ready component, a Go
	// duration such as "10m". Unset means the operator's default.
	// +optional
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	RequeueInterval *metav1.Duration `json:"requeueInterval,omitempty"`
}

// GetRequeueInterval returns RequeueInterval, zero when unset.
func (s *RequeueSpec) GetRequeueInterval() time.Duration { return durationOf(s.RequeueInterval) }

// RetrySpec sets how soon a failed pass is retried.
type RetrySpec struct {
	// RetryInterval is the time before a pass that failed transiently is
	// retried, a Go duration such as "30s". Unset means the operator's
	// default.
	// +optional
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	RetryInterval *metav1.Duration `json:"retryInterval,omitempty"`
}

// GetRetryInterval returns RetryInterval, zero when unset.
func (s *RetrySpec) GetRetryInterval() time.Duration { return durationOf(s.RetryInterval) }

// TimeoutSpec bounds how long the objects of one desired state may take to
// become ready.
type TimeoutSpec struct {
	// Timeout is how long the dependent objects may take to become ready
	// after they were applied, a Go duration such as "5m"; past it the
	// component is in state Error with reason Timeout. Unset means the
	// operator's default.
	// +optional
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	Timeout *metav1.Duration `json:"timeout,omitempty"`
}

// GetTimeout returns Timeout, zero when unset.
func (s *TimeoutSpec) GetTimeout() time.Duration { return durationOf(s.Timeout) }

// ReapplySpec sets how often unchanged objects are written again anyway.
type ReapplySpec struct {
	// ReapplyInterval, when set, rewrites an object that seems unchanged
	// once it was last written longer ago, a Go duration such as "1h".
	// Unset means the operator's default.
	// +optional
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	ReapplyInterval *metav1.Duration `json:"reapplyInterval,omitempty"`
}

// GetReapplyInterval returns ReapplyInterval, zero when unset.
func (s *ReapplySpec) GetReapplyInterval() time.Duration { return durationOf(s.ReapplyInterval) }

func durationOf(d *metav1.Duration) time.Duration {
	if d == nil {
		return 0
	}
	return d.Duration
}
