package servertest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
)

type batchJob = batchv1.Job

func newJob(ns, name string) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr.To[int32](1),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{{Name: "main", Image: "example.com/job:1"}},
			}},
		},
	}
}

// statefulSet returns a StatefulSet; storage "" means no claim template.
func statefulSet(ns, name, storage string) *appsv1.StatefulSet {
	labels := map[string]string{"app": name}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    ptr.To[int32](1),
			ServiceName: name,
			Selector:    &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "example.com/db:1"}}},
			},
		},
	}
	if storage != "" {
		sts.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{
			ObjectMeta: metav1.ObjectMeta{Name: "data"},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(storage)}},
			},
		}}
		sts.Spec.Template.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
	}
	return sts
}

// forcingFixture writes every object on every pass: the fake clock passes
// the reapply interval before each pass, so the update path always runs.
func forcingFixture(t *testing.T) (*fixture, *clocktesting.FakeClock) {
	return forcingFixtureWith(t, apply.UpdatePolicyReplace)
}

func forcingFixtureWith(t *testing.T, update apply.UpdatePolicy) (*fixture, *clocktesting.FakeClock) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return newFixture(t, "owner-a", apply.Options{Clock: clk, ReapplyInterval: time.Minute, UpdatePolicy: update}), clk
}

func (f *fixture) applyOnce(clk *clocktesting.FakeClock, objects ...client.Object) apply.Result {
	f.t.Helper()
	clk.Step(time.Hour)
	before := f.counter.Snapshot()
	res, err := f.r.Apply(f.t.Context(), &f.inv, objects, f.pass())
	require.NoError(f.t, err)
	require.Positive(f.t, f.counter.Snapshot().Sub(before).Writes(), "the pass did not write")
	return res
}

func TestStorageResizeIsReportedAndNotApplied(t *testing.T) {
	f, clk := forcingFixture(t)
	f.applyOnce(clk, statefulSet(f.ns, "db", "1Gi"))
	res := f.applyOnce(clk, statefulSet(f.ns, "db", "2Gi"))
	want := map[string][]string{"StatefulSet.apps " + f.ns + "/db": {"spec.volumeClaimTemplates"}}
	if diff := cmp.Diff(want, ignored(res)); diff != "" {
		t.Errorf("ignored fields (-want +got):\n%s", diff)
	}
	values := []apply.IgnoredValue{{Path: "spec.volumeClaimTemplates[name=data].spec.resources.requests.storage", Live: "1Gi", Desired: "2Gi"}}
	if diff := cmp.Diff(values, res.Changes[0].IgnoredValues); diff != "" {
		t.Errorf("ignored values (-want +got):\n%s", diff)
	}
	live := &appsv1.StatefulSet{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "db"}, live))
	got := live.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests[corev1.ResourceStorage]
	require.Equal(t, "1Gi", got.String())
}

func TestUnchangedStatefulSetIsNeverReported(t *testing.T) {
	for _, policy := range []apply.UpdatePolicy{apply.UpdatePolicyReplace, apply.UpdatePolicySSAMerge, apply.UpdatePolicySSAOverride} {
		t.Run(string(policy), func(t *testing.T) {
			f, clk := forcingFixtureWith(t, policy)
			for pass := range 10 {
				res := f.applyOnce(clk, statefulSet(f.ns, "db", "1Gi"))
				require.Empty(t, ignored(res), "pass %d", pass)
			}
			res := f.applyOnce(clk, statefulSet(f.ns, "db", "5Gi"))
			require.Len(t, ignored(res), 1, "a resize must still be reported")
		})
	}
}

func TestAddingThenRemovingStorageStaysCoherent(t *testing.T) {
	tests := []struct {
		name, from, to string
		wantMounts     []corev1.VolumeMount
		wantClaims     int
	}{
		{name: "adding", from: "", to: "1Gi", wantMounts: nil, wantClaims: 0},
		{name: "removing", from: "1Gi", to: "", wantMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}, wantClaims: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, clk := forcingFixture(t)
			f.applyOnce(clk, statefulSet(f.ns, "db", tt.from))
			res := f.applyOnce(clk, statefulSet(f.ns, "db", tt.to))
			require.Len(t, ignored(res), 1)
			live := &appsv1.StatefulSet{}
			require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "db"}, live))
			require.Len(t, live.Spec.VolumeClaimTemplates, tt.wantClaims)
			if diff := cmp.Diff(tt.wantMounts, live.Spec.Template.Spec.Containers[0].VolumeMounts); diff != "" {
				t.Errorf("mounts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJobAppliedTwiceUnchangedSucceeds(t *testing.T) {
	f, clk := forcingFixture(t)
	f.applyOnce(clk, newJob(f.ns, "once"))
	res := f.applyOnce(clk, newJob(f.ns, "once"))
	require.Empty(t, ignored(res))

	changed := newJob(f.ns, "once")
	changed.Spec.Template.Spec.Containers[0].Image = "example.com/job:2"
	changed.Spec.BackoffLimit = ptr.To[int32](3)
	res = f.applyOnce(clk, changed)
	want := map[string][]string{"Job.batch " + f.ns + "/once": {"spec.template"}}
	if diff := cmp.Diff(want, ignored(res)); diff != "" {
		t.Errorf("ignored fields (-want +got):\n%s", diff)
	}
	live := jobStatus(t, f, changed)
	require.Equal(t, "example.com/job:1", live.Spec.Template.Spec.Containers[0].Image)

	// Any stated template difference is reported, not only image or command.
	for name, edit := range map[string]func(*batchv1.Job){
		"working dir": func(j *batchv1.Job) { j.Spec.Template.Spec.Containers[0].WorkingDir = "/work" },
		"a volume": func(j *batchv1.Job) {
			j.Spec.Template.Spec.Volumes = []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		},
		"an annotation": func(j *batchv1.Job) { j.Spec.Template.Annotations = map[string]string{"a": "b"} },
	} {
		edited := newJob(f.ns, "once")
		edited.Spec.BackoffLimit = ptr.To[int32](3)
		edit(edited)
		res = f.applyOnce(clk, edited)
		if diff := cmp.Diff(want, ignored(res)); diff != "" {
			t.Errorf("%s: ignored fields (-want +got):\n%s", name, diff)
		}
	}
	require.Equal(t, int32(3), *live.Spec.BackoffLimit, "mutable fields must converge")
}

func TestServiceKeepsAllocatedFields(t *testing.T) {
	f, clk := forcingFixture(t)
	svc := func(port int32, clusterIP string) *corev1.Service {
		return &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "web"},
			Spec: corev1.ServiceSpec{
				Type:      corev1.ServiceTypeNodePort,
				ClusterIP: clusterIP,
				Selector:  map[string]string{"app": "web"},
				Ports:     []corev1.ServicePort{{Name: "http", Port: port}},
			},
		}
	}
	f.applyOnce(clk, svc(80, ""))
	before := &corev1.Service{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "web"}, before))

	res := f.applyOnce(clk, svc(80, ""))
	require.Empty(t, ignored(res))
	res = f.applyOnce(clk, svc(80, "10.0.255.254"))
	want := map[string][]string{"Service " + f.ns + "/web": {"spec.clusterIP"}}
	if diff := cmp.Diff(want, ignored(res)); diff != "" {
		t.Errorf("ignored fields (-want +got):\n%s", diff)
	}
	after := &corev1.Service{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "web"}, after))
	require.Equal(t, before.Spec.ClusterIP, after.Spec.ClusterIP)
	require.Equal(t, before.Spec.Ports[0].NodePort, after.Spec.Ports[0].NodePort)
}

func TestClaimKeepsItsSpec(t *testing.T) {
	f, clk := forcingFixture(t)
	pvc := func(mode corev1.PersistentVolumeAccessMode) *corev1.PersistentVolumeClaim {
		return &corev1.PersistentVolumeClaim{
			ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "data"},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes: []corev1.PersistentVolumeAccessMode{mode},
				Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
			},
		}
	}
	f.applyOnce(clk, pvc(corev1.ReadWriteOnce))
	res := f.applyOnce(clk, pvc(corev1.ReadWriteOnce))
	require.Empty(t, ignored(res), "server-filled fields reported")

	res = f.applyOnce(clk, pvc(corev1.ReadWriteMany))
	want := map[string][]string{"PersistentVolumeClaim " + f.ns + "/data": {"spec"}}
	if diff := cmp.Diff(want, ignored(res)); diff != "" {
		t.Errorf("ignored fields (-want +got):\n%s", diff)
	}
	live := &corev1.PersistentVolumeClaim{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "data"}, live))
	require.Equal(t, []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}, live.Spec.AccessModes)
}

// A preserved difference is reported on every pass while the desired
// object states it, not only on the pass that wrote, and without writing.
func TestIgnoredFieldsPersistAcrossPasses(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	_, err := f.r.Apply(t.Context(), &f.inv, []client.Object{statefulSet(f.ns, "db", "1Gi")}, f.pass())
	require.NoError(t, err)
	want := map[string][]string{"StatefulSet.apps " + f.ns + "/db": {"spec.volumeClaimTemplates"}}
	for pass := range 3 {
		before := f.counter.Snapshot()
		res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{statefulSet(f.ns, "db", "2Gi")}, f.pass())
		require.NoError(t, err)
		if diff := cmp.Diff(want, ignored(res)); diff != "" {
			t.Errorf("pass %d: ignored fields (-want +got):\n%s", pass, diff)
		}
		values := []apply.IgnoredValue{{Path: "spec.volumeClaimTemplates[name=data].spec.resources.requests.storage", Live: "1Gi", Desired: "2Gi"}}
		if diff := cmp.Diff(values, res.Changes[0].IgnoredValues); diff != "" {
			t.Errorf("pass %d: ignored values (-want +got):\n%s", pass, diff)
		}
		if pass > 0 {
			require.Zero(t, f.counter.Snapshot().Sub(before).Writes(), "pass %d wrote an unchanged object", pass)
		}
	}
}
