package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// KafkaClusterSpec is a Kafka cluster in KRaft mode: controllers holding
// the metadata quorum and brokers serving clients, each role with its role
// groups.
//
// +kubebuilder:validation:XValidation:rule="has(self.roles) && 'controller' in self.roles && 'broker' in self.roles",message="spec.roles must configure both the controller and the broker role"
type KafkaClusterSpec struct {
	commonsv1alpha1.ClusterSpec `json:",inline"`

	// CredentialsSecret names a Secret in the cluster's namespace whose
	// "users" key lists the SASL/PLAIN users ("name:password" per line).
	// Brokers read it at start; a change reconciles the cluster.
	// +kubebuilder:validation:MinLength=1
	CredentialsSecret string `json:"credentialsSecret"`

	// ClusterConfig holds cluster-wide broker settings.
	// +optional
	ClusterConfig *KafkaClusterConfig `json:"clusterConfig,omitempty"`
}

// KafkaClusterConfig holds cluster-wide broker settings.
//
// +kubebuilder:validation:XValidation:rule="!has(self.minInSyncReplicas) || !has(self.defaultReplicationFactor) || self.minInSyncReplicas <= self.defaultReplicationFactor",message="minInSyncReplicas must not exceed defaultReplicationFactor"
type KafkaClusterConfig struct {
	// DefaultReplicationFactor is the replication factor of topics created
	// without one. Unset means 3.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=7
	DefaultReplicationFactor *int32 `json:"defaultReplicationFactor,omitempty"`

	// MinInSyncReplicas is how many replicas must acknowledge a write with
	// acks=all. Unset means 2.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MinInSyncReplicas *int32 `json:"minInSyncReplicas,omitempty"`
}

// KafkaClusterStatus is the common cluster status plus where clients
// connect.
type KafkaClusterStatus struct {
	commonsv1alpha1.ClusterStatus `json:",inline"`

	// BootstrapServers is the client bootstrap address list, also
	// published in the ConfigMap "<cluster>-bootstrap".
	// +optional
	BootstrapServers string `json:"bootstrapServers,omitempty"`
}

// KafkaCluster is a Kafka cluster run by the example operator.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=kafka
// +kubebuilder:printcolumn:name="Available",type=string,JSONPath=`.status.conditions[?(@.type=="Available")].status`
// +kubebuilder:printcolumn:name="Degraded",type=string,JSONPath=`.status.conditions[?(@.type=="Degraded")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type KafkaCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired cluster.
	Spec KafkaClusterSpec `json:"spec"`
	// Status is what the operator observed and did.
	Status KafkaClusterStatus `json:"status,omitempty"`
}

// KafkaClusterList is a list of KafkaCluster.
//
// +kubebuilder:object:root=true
type KafkaClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the clusters.
	Items []KafkaCluster `json:"items"`
}

// GetClusterSpec returns the embedded common spec.
func (c *KafkaCluster) GetClusterSpec() *commonsv1alpha1.ClusterSpec { return &c.Spec.ClusterSpec }

// GetClusterStatus returns the embedded common status.
func (c *KafkaCluster) GetClusterStatus() *commonsv1alpha1.ClusterStatus {
	return &c.Status.ClusterStatus
}
