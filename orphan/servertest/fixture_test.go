package servertest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// ledgerOf returns a status ledger naming refs.
func ledgerOf(refs ...v1alpha1.RoleGroupRef) []v1alpha1.RoleGroupStatus {
	out := make([]v1alpha1.RoleGroupStatus, 0, len(refs))
	for _, ref := range refs {
		out = append(out, v1alpha1.RoleGroupStatus{RoleGroupRef: ref})
	}
	return out
}

// fixture is one cluster resource with role groups applied the way a
// reconciler would: every object controller-owned by the cluster, named and
// labelled by builders.
type fixture struct {
	t       *testing.T
	c       client.Client
	ns      string
	cluster *samplev1alpha1.SampleCluster
}

func newFixture(t *testing.T, annotations map[string]string) *fixture {
	t.Helper()
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cr := &samplev1alpha1.SampleCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "demo", Annotations: annotations}}
	require.NoError(t, cp.Client.Create(t.Context(), cr))
	return &fixture{t: t, c: cp.Client, ns: ns, cluster: cr}
}

func (f *fixture) scope(ref v1alpha1.RoleGroupRef) builders.Scope {
	return builders.Scope{Namespace: f.ns, Cluster: f.cluster.Name, Role: ref.Role, RoleGroup: ref.Group}
}

// groupOptions shape the objects of one role group.
type groupOptions struct {
	replicas     int32
	storageClass string // non-empty: a claim template bound to pre-made volumes
}

// applyGroup creates the six objects of a role group.
func (f *fixture) applyGroup(ref v1alpha1.RoleGroupRef, o groupOptions) {
	f.t.Helper()
	sc := f.scope(ref)
	name := sc.ResourceName()
	labels := sc.Labels()
	selector := sc.SelectorLabels()
	sts := &appsv1.StatefulSet{
		ObjectMeta: meta(f.ns, name, labels),
		Spec: appsv1.StatefulSetSpec{
			Replicas:            ptr.To(o.replicas),
			ServiceName:         builders.HeadlessServiceName(name),
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Selector:            &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "example.invalid/product:1"}}},
			},
		},
	}
	if o.storageClass != "" {
		sts.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{
			ObjectMeta: metav1.ObjectMeta{Name: "data"},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				StorageClassName: ptr.To(o.storageClass),
				Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
			},
		}}
		sts.Spec.Template.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
		for i := range o.replicas {
			f.volume(fmt.Sprintf("%s-%s-%d", f.ns, name, i), o.storageClass)
		}
	}
	port := []corev1.ServicePort{{Name: "http", Port: 8080, TargetPort: intstr.FromInt32(8080)}}
	metricsLabels := map[string]string{v1alpha1.LabelMetricsService: "true"}
	for k, v := range labels {
		metricsLabels[k] = v
	}
	pdbLabels := map[string]string{v1alpha1.LabelRoleGroupPodDisruptionBudget: ref.Group}
	for k, v := range labels {
		pdbLabels[k] = v
	}
	objs := []client.Object{
		&corev1.ConfigMap{ObjectMeta: meta(f.ns, name, labels), Data: map[string]string{"k": "v"}},
		&corev1.Service{ObjectMeta: meta(f.ns, name, labels), Spec: corev1.ServiceSpec{Selector: selector, Ports: port}},
		&corev1.Service{ObjectMeta: meta(f.ns, builders.HeadlessServiceName(name), labels), Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: selector, Ports: port}},
		&corev1.Service{ObjectMeta: meta(f.ns, builders.MetricsServiceName(name), metricsLabels), Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: selector, Ports: port}},
		&policyv1.PodDisruptionBudget{ObjectMeta: meta(f.ns, name, pdbLabels), Spec: policyv1.PodDisruptionBudgetSpec{
			MaxUnavailable: ptr.To(intstr.FromInt32(1)), Selector: &metav1.LabelSelector{MatchLabels: selector}}},
		sts,
	}
	for _, obj := range objs {
		f.own(obj)
	}
}

// own creates obj controller-owned by the cluster resource.
func (f *fixture) own(obj client.Object) {
	f.t.Helper()
	require.NoError(f.t, controllerutil.SetControllerReference(f.cluster, obj, f.c.Scheme()))
	require.NoError(f.t, f.c.Create(f.t.Context(), obj), "creating %T %s", obj, obj.GetName())
}

// volume creates a persistent volume the claim of that name binds to, so
// that the StatefulSet's pods can be scheduled.
func (f *fixture) volume(claim, class string) {
	f.t.Helper()
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: "pv-" + claim},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")},
			AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			StorageClassName:              class,
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
			PersistentVolumeSource:        corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/tmp/" + claim}},
		},
	}
	require.NoError(f.t, f.c.Create(f.t.Context(), pv))
	f.t.Cleanup(func() { _ = f.c.Delete(context.Background(), pv) })
}

func meta(ns, name string, labels map[string]string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}
}

// waitReady waits until the group's StatefulSet has n ready replicas.
func (f *fixture) waitReady(ref v1alpha1.RoleGroupRef, n int32) {
	f.t.Helper()
	key := client.ObjectKey{Namespace: f.ns, Name: f.scope(ref).ResourceName()}
	_, err := testkit.WaitFor(f.t.Context(), func(ctx context.Context) (int32, bool, error) {
		var sts appsv1.StatefulSet
		if err := f.c.Get(ctx, key, &sts); err != nil {
			return 0, false, err
		}
		return sts.Status.ReadyReplicas, sts.Status.ReadyReplicas == n, nil
	}, 60*time.Second)
	require.NoError(f.t, err, "StatefulSet %s ready replicas", key.Name)
}

// present reports which of the group's objects exist, in teardown order.
func (f *fixture) present(ref v1alpha1.RoleGroupRef) []string {
	f.t.Helper()
	name := f.scope(ref).ResourceName()
	checks := []struct {
		label string
		obj   client.Object
		name  string
	}{
		{"pdb", &policyv1.PodDisruptionBudget{}, name},
		{"statefulset", &appsv1.StatefulSet{}, name},
		{"configmap", &corev1.ConfigMap{}, name},
		{"service", &corev1.Service{}, name},
		{"headless", &corev1.Service{}, builders.HeadlessServiceName(name)},
		{"metrics", &corev1.Service{}, builders.MetricsServiceName(name)},
	}
	var out []string
	for _, c := range checks {
		err := f.c.Get(f.t.Context(), client.ObjectKey{Namespace: f.ns, Name: c.name}, c.obj)
		if apierrors.IsNotFound(err) {
			continue
		}
		require.NoError(f.t, err)
		out = append(out, c.label)
	}
	return out
}

// claims returns the names of the namespace's volume claims that are not
// being deleted.
func (f *fixture) claims() []string {
	f.t.Helper()
	var list corev1.PersistentVolumeClaimList
	require.NoError(f.t, f.c.List(f.t.Context(), &list, client.InNamespace(f.ns)))
	var out []string
	for _, pvc := range list.Items {
		if pvc.DeletionTimestamp == nil {
			out = append(out, pvc.Name)
		}
	}
	return out
}

func (f *fixture) statefulSet(ref v1alpha1.RoleGroupRef) *appsv1.StatefulSet {
	f.t.Helper()
	var sts appsv1.StatefulSet
	require.NoError(f.t, f.c.Get(f.t.Context(), client.ObjectKey{Namespace: f.ns, Name: f.scope(ref).ResourceName()}, &sts))
	return &sts
}
