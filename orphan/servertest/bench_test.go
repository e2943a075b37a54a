package servertest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// countedClients returns a client and an uncached reader, each counting its
// own requests.
func countedClients(b *testing.B) (client.Client, *apicount.Counter, client.Client, *apicount.Counter) {
	b.Helper()
	cp := env.Require(b)
	mk := func() (client.Client, *apicount.Counter) {
		counter := apicount.New()
		cfg := cp.RESTConfig()
		cfg.Wrap(counter.WrapTransport)
		c, err := client.New(cfg, client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper(), Log: testkit.Logger(b)})
		if err != nil {
			b.Fatal(err)
		}
		return c, counter
	}
	c, cc := mk()
	r, rc := mk()
	return c, cc, r, rc
}

// benchCluster creates a cluster resource with n role groups of zero
// replicas (the drain is immediate), returning it and the groups.
func benchCluster(b *testing.B, c client.Client, n int) (*fixture, []v1alpha1.RoleGroupRef) {
	b.Helper()
	ctx := context.Background()
	cp := env.Require(b)
	ns := testkit.Namespace(b, cp.Client)
	cr := &samplev1alpha1.SampleCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bench"}}
	if err := c.Create(ctx, cr); err != nil {
		b.Fatal(err)
	}
	f := &fixture{c: c, ns: ns, cluster: cr}
	var refs []v1alpha1.RoleGroupRef
	for i := range n {
		ref := v1alpha1.RoleGroupRef{Role: "worker", Group: fmt.Sprintf("g%03d", i)}
		refs = append(refs, ref)
		for _, obj := range groupObjects(f, ref) {
			if err := c.Create(ctx, obj); err != nil {
				b.Fatal(err)
			}
		}
	}
	return f, refs
}

// groupObjects builds a role group's six objects, owned by the cluster.
func groupObjects(f *fixture, ref v1alpha1.RoleGroupRef) []client.Object {
	sc := f.scope(ref)
	name, labels, sel := sc.ResourceName(), sc.Labels(), sc.SelectorLabels()
	pdbLabels := map[string]string{v1alpha1.LabelRoleGroupPodDisruptionBudget: ref.Group}
	for k, v := range labels {
		pdbLabels[k] = v
	}
	zero := int32(0)
	port := []corev1.ServicePort{{Name: "http", Port: 80}}
	objs := []client.Object{
		&appsv1.StatefulSet{ObjectMeta: meta(f.ns, name, labels), Spec: appsv1.StatefulSetSpec{
			Replicas: &zero, Selector: &metav1.LabelSelector{MatchLabels: sel},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "example.invalid/x:1"}}}}}},
		&corev1.ConfigMap{ObjectMeta: meta(f.ns, name, labels)},
		&corev1.Service{ObjectMeta: meta(f.ns, name, labels), Spec: corev1.ServiceSpec{Selector: sel, Ports: port}},
		&corev1.Service{ObjectMeta: meta(f.ns, builders.HeadlessServiceName(name), labels), Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: sel, Ports: port}},
		&corev1.Service{ObjectMeta: meta(f.ns, builders.MetricsServiceName(name), labels), Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: sel, Ports: port}},
		&policyv1.PodDisruptionBudget{ObjectMeta: meta(f.ns, name, pdbLabels), Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: sel}}},
	}
	for _, obj := range objs {
		obj.SetOwnerReferences([]metav1.OwnerReference{*metav1.NewControllerRef(f.cluster, samplev1alpha1.GroupVersion.WithKind("SampleCluster"))})
	}
	return objs
}

// BenchmarkIdlePass measures a pass over a cluster of 20 declared groups
// with nothing to retire, against a naive pass that reads each group's six
// objects through the uncached reader.
func BenchmarkIdlePass(b *testing.B) {
	c, cc, r, rc := countedClients(b)
	f, refs := benchCluster(b, c, 20)
	cr := f.cluster
	cleaner, err := orphan.NewCleaner(c, r, orphan.Options{Registerer: prometheus.NewRegistry()})
	if err != nil {
		b.Fatal(err)
	}
	in := orphan.Input{Owner: cr, Declared: refs, Ledger: ledgerOf(refs...)}
	ctx := context.Background()

	cBefore, rBefore := cc.Snapshot(), rc.Snapshot()
	for b.Loop() {
		if _, err := cleaner.Clean(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	passes := float64(b.N)
	cDelta, rDelta := cc.Snapshot().Sub(cBefore), rc.Snapshot().Sub(rBefore)

	naive := rc.Snapshot()
	for _, ref := range refs {
		name := builders.RoleGroupResourceName(cr.Name, ref.Role, ref.Group)
		for _, obj := range []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}, &corev1.Service{}, &corev1.Service{}, &policyv1.PodDisruptionBudget{}} {
			_ = r.Get(ctx, client.ObjectKey{Namespace: cr.Namespace, Name: name}, obj)
		}
	}
	naiveReads := float64(rc.Snapshot().Sub(naive).Reads())

	b.ReportMetric(float64(cDelta.Writes()+rDelta.Writes())/passes, "writes/pass")
	b.ReportMetric(float64(rDelta.Total())/passes, "uncached-reads/pass")
	b.ReportMetric(float64(cDelta.Total()+rDelta.Total())/passes, "requests/pass")
	b.ReportMetric(naiveReads, "naive-requests/pass")
	b.ReportMetric(float64(cDelta.Total()+rDelta.Total())/passes/naiveReads, "requests/naive")
}

// BenchmarkReclaim100Groups measures retiring 100 role groups of zero
// replicas: passes, requests per group and objects deleted per second,
// against naive deletes of the same objects measured in the same run.
func BenchmarkReclaim100Groups(b *testing.B) {
	const groups = 100
	for b.Loop() {
		b.StopTimer()
		c, cc, r, rc := countedClients(b)
		f, refs := benchCluster(b, c, groups)
		cr := f.cluster
		cleaner, err := orphan.NewCleaner(c, r, orphan.Options{Registerer: prometheus.NewRegistry()})
		if err != nil {
			b.Fatal(err)
		}
		in := orphan.Input{Owner: cr, Ledger: ledgerOf(refs...)}
		ctx := context.Background()
		cBefore, rBefore := cc.Snapshot(), rc.Snapshot()
		b.StartTimer()

		began, passes := time.Now(), 0
		for len(in.Ledger) > 0 {
			passes++
			res, err := cleaner.Clean(ctx, in)
			if err != nil {
				b.Fatal(err)
			}
			in.Ledger = res.Prune(in.Ledger)
		}
		elapsed := time.Since(began)
		b.StopTimer()
		requests := cc.Snapshot().Sub(cBefore).Total() + rc.Snapshot().Sub(rBefore).Total()

		// Baseline: the same objects deleted with one plain Delete each.
		f2, refs2 := benchCluster(b, c, groups)
		naiveBefore := cc.Snapshot()
		naiveBegan := time.Now()
		for _, ref := range refs2 {
			for _, obj := range groupObjects(f2, ref) {
				if err := c.Delete(ctx, obj); err != nil {
					b.Fatal(err)
				}
			}
		}
		naiveElapsed := time.Since(naiveBegan)
		naiveRequests := cc.Snapshot().Sub(naiveBefore).Total()

		b.ReportMetric(float64(passes), "passes")
		b.ReportMetric(float64(requests)/groups, "requests/group")
		b.ReportMetric(float64(groups*6)/elapsed.Seconds(), "objects/s")
		b.ReportMetric(float64(requests)/float64(naiveRequests), "requests/naive")
		b.ReportMetric(elapsed.Seconds()/naiveElapsed.Seconds(), "time/naive")
		b.StartTimer()
	}
}
