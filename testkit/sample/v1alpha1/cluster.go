package v1alpha1

import commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"

// GetClusterSpec returns the embedded common spec, so a SampleCluster can be
// reconciled by opkit's product reconciler.
func (c *SampleCluster) GetClusterSpec() *commonsv1alpha1.ClusterSpec { return &c.Spec.ClusterSpec }

// GetClusterStatus returns the embedded common status.
func (c *SampleCluster) GetClusterStatus() *commonsv1alpha1.ClusterStatus {
	return &c.Status.ClusterStatus
}
