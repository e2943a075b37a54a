package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// RoleGroupConfigSpec is the configuration block every role group has. It is
// folded over three layers (the product's declared defaults, the role, the
// role group) by configfold.FoldCommon. A product with its own config fields
// embeds it inline beside them.
type RoleGroupConfigSpec struct {
	// Resources sets CPU, memory and storage. It folds per leaf: a default
	// cpu.min survives a layer that states only cpu.max.
	// +optional
	Resources *ResourcesSpec `json:"resources,omitempty"`

	// Affinity is a Kubernetes core/v1 Affinity. It is kept schema-free and
	// decoded strictly by opkit, so a misspelt field is an error rather than
	// an affinity silently ignored. A layer that states it replaces it
	// wholesale; {} clears it.
	// +optional
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Affinity *runtime.RawExtension `json:"affinity,omitempty"`

	// Logging configures log levels per container and the log agent.
	// +optional
	Logging *LoggingSpec `json:"logging,omitempty"`

	// GracefulShutdownTimeout is how long a pod may take to stop, as a Go
	// duration ("30s", "2m"). It becomes terminationGracePeriodSeconds. The
	// pattern refuses what Go cannot parse at admission, where the user sees
	// it, instead of failing the role group's build later.
	// +optional
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	GracefulShutdownTimeout *string `json:"gracefulShutdownTimeout,omitempty"`
}

// ResourcesSpec sets a role group's compute and storage resources.
type ResourcesSpec struct {
	// CPU sets the CPU request (min) and limit (max).
	// +optional
	CPU *CPUResource `json:"cpu,omitempty"`
	// Memory sets the memory request and limit.
	// +optional
	Memory *MemoryResource `json:"memory,omitempty"`
	// Storage sizes the data volume of roles that declare one.
	// +optional
	Storage *StorageResource `json:"storage,omitempty"`
}

// CPUResource bounds CPU.
type CPUResource struct {
	// Min becomes the container's CPU request.
	// +optional
	Min *resource.Quantity `json:"min,omitempty"`
	// Max becomes the container's CPU limit.
	// +optional
	Max *resource.Quantity `json:"max,omitempty"`
}

// MemoryResource bounds memory.
type MemoryResource struct {
	// Limit becomes the container's memory request and limit.
	// +optional
	Limit *resource.Quantity `json:"limit,omitempty"`
}

// StorageResource sizes a data volume.
type StorageResource struct {
	// Capacity is the size of the data volume claim.
	// +optional
	Capacity *resource.Quantity `json:"capacity,omitempty"`
	// StorageClass is the claim's storage class. Unset inherits (and finally
	// means the cluster default); "" means "bind only a pre-provisioned
	// volume, never provision one", as in Kubernetes.
	// +optional
	StorageClass *string `json:"storageClass,omitempty"`
}
