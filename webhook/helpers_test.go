package webhook_test

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/reconciler"
)

// cluster is a product cluster resource for the tests: the common spec
// and a product field.
type cluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              clusterSpec                   `json:"spec,omitempty"`
	Status            commonsv1alpha1.ClusterStatus `json:"status,omitempty"`
}

type clusterSpec struct {
	commonsv1alpha1.ClusterSpec `json:",inline"`
	Note                        string `json:"note,omitempty"`
}

func (c *cluster) GetClusterSpec() *commonsv1alpha1.ClusterSpec     { return &c.Spec.ClusterSpec }
func (c *cluster) GetClusterStatus() *commonsv1alpha1.ClusterStatus { return &c.Status }

func (c *cluster) DeepCopy() *cluster {
	out := &cluster{TypeMeta: c.TypeMeta, Spec: clusterSpec{ClusterSpec: *c.Spec.ClusterSpec.DeepCopy(), Note: c.Spec.Note}}
	c.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	c.Status.DeepCopyInto(&out.Status)
	return out
}

func (c *cluster) DeepCopyObject() runtime.Object { return c.DeepCopy() }

// catalog is the product: servers with a client port, optional gateways.
func catalog() reconciler.Catalog {
	return reconciler.Catalog{
		"server": {
			ContainerPorts: []corev1.ContainerPort{{Name: "client", ContainerPort: 2181}},
			ServicePorts:   []corev1.ServicePort{{Name: "client", Port: 2181, TargetPort: intstr.FromString("client")}},
		},
		"gateway": {Optional: true},
	}
}

func config() reconciler.Config[*cluster] {
	return reconciler.Config[*cluster]{
		Name:  "sample.opkit.dev",
		For:   &cluster{},
		Roles: reconciler.StaticRoles[*cluster](catalog()),
		Image: imageresolve.Options{ProductName: "sample", Defaults: commonsv1alpha1.ImageSpec{Repo: "registry.example/opkit", ProductVersion: "1.0.0"}},
	}
}

// newCluster returns a cluster with one group per role, as the user wrote
// it after mutate changed it.
func newCluster(mutate func(*commonsv1alpha1.ClusterSpec), roles ...string) *cluster {
	c := &cluster{TypeMeta: metav1.TypeMeta{APIVersion: "sample.opkit.dev/v1alpha1", Kind: "SampleCluster"}}
	c.Namespace, c.Name = "data", "prod"
	c.Spec.Roles = map[string]commonsv1alpha1.RoleSpec{}
	for _, r := range roles {
		c.Spec.Roles[r] = commonsv1alpha1.RoleSpec{RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {}}}
	}
	if mutate != nil {
		mutate(&c.Spec.ClusterSpec)
	}
	return c
}

// setGroup stores g as role's default group.
func setGroup(s *commonsv1alpha1.ClusterSpec, role string, g commonsv1alpha1.RoleGroupSpec) {
	s.Roles[role].RoleGroups["default"] = g
}
