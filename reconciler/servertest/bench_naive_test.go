package servertest_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit/apicount"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

type sampleClusterList = samplev1alpha1.SampleClusterList

// recordingHandler builds through the product's handler and, while on,
// keeps a copy of what it built per cluster: the desired objects the
// naive baseline writes, exactly as the reconciler's handler built them.
type recordingHandler struct {
	inner reconciler.RoleGroupHandler[*sampleCluster]
	on    atomic.Bool
	mu    sync.Mutex
	built map[string]map[string][]client.Object // cluster → role/group → objects
}

func newRecordingHandler(inner reconciler.RoleGroupHandler[*sampleCluster]) *recordingHandler {
	return &recordingHandler{inner: inner, built: map[string]map[string][]client.Object{}}
}

func (h *recordingHandler) BuildRoleGroup(ctx context.Context, cr *sampleCluster, bc *reconciler.BuildContext) (*reconciler.RoleGroupObjects, error) {
	objs, err := h.inner.BuildRoleGroup(ctx, cr, bc)
	if err != nil || !h.on.Load() {
		return objs, err
	}
	var copies []client.Object
	for _, o := range []client.Object{objs.ConfigMap, objs.HeadlessService, objs.Service, objs.MetricsService, objs.StatefulSet, objs.PodDisruptionBudget} {
		if !isNilObject(o) {
			copies = append(copies, o.DeepCopyObject().(client.Object))
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.built[cr.Name] == nil {
		h.built[cr.Name] = map[string][]client.Object{}
	}
	h.built[cr.Name][bc.Role+"/"+bc.RoleGroup] = copies
	return objs, nil
}

func isNilObject(o client.Object) bool {
	switch v := o.(type) {
	case *corev1.ConfigMap:
		return v == nil
	case *corev1.Service:
		return v == nil
	case *appsv1.StatefulSet:
		return v == nil
	case *policyv1.PodDisruptionBudget:
		return v == nil
	}
	return o == nil
}

// desired returns the cluster's whole desired set as the reconciler builds
// it: the recorded role-group objects, the ServiceAccount and the role
// budgets.
func (h *recordingHandler) desired(cr *sampleCluster) ([]client.Object, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	groups := h.built[cr.Name]
	if len(groups) == 0 {
		return nil, fmt.Errorf("nothing recorded for cluster %s", cr.Name)
	}
	scope := builders.Scope{Namespace: cr.Namespace, Cluster: cr.Name, ProductName: "sample", ClusterLabels: cr.Labels}
	objs := []client.Object{builders.ServiceAccount(scope, builders.ServiceAccountName("SampleCluster", cr.Name))}
	for _, role := range slices.Sorted(maps.Keys(cr.Spec.Roles)) {
		scope.Role = role
		pdb, err := builders.NewPodDisruptionBudget(scope, nil).Build()
		if err != nil {
			return nil, err
		}
		objs = append(objs, pdb)
	}
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		objs = append(objs, groups[g]...)
	}
	return objs, nil
}

// naiveReconciler is the baseline: a create-or-update reconciler as the
// reference framework writes one. Every pass reads each desired object
// (through its own informer cache, as a controller-runtime client does)
// and writes it back with the desired state copied in: labels and
// annotations merged, spec and data replaced, the fields the API server
// does not let change kept.
type naiveReconciler struct {
	c     client.Client
	count *apicount.Counter
	// desired are the clusters' desired objects.
	desired map[string][]client.Object
	// changed counts writes that changed an object (a new
	// resourceVersion); after the first pass there should be none.
	changed atomic.Int64
}

// newNaiveReconciler starts the naive reconciler's cache until the
// workload's benchmark ends.
func newNaiveReconciler(b *testing.B, w *workload, desired map[string][]client.Object) *naiveReconciler {
	b.Helper()
	count := apicount.New()
	rc := w.cp.RESTConfig()
	rc.QPS, rc.Burst = -1, 0
	rc.Wrap(count.WrapTransport)
	ca, err := cache.New(rc, cache.Options{Scheme: testScheme(), Mapper: w.api.RESTMapper(), DefaultNamespaces: map[string]cache.Config{w.ns: {}}})
	if err != nil {
		b.Fatal(err)
	}
	c, err := client.New(rc, client.Options{Scheme: testScheme(), Mapper: w.api.RESTMapper(), Cache: &client.CacheOptions{Reader: ca}})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ca.Start(logr.NewContext(ctx, logr.Discard())) }()
	w.parent.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			w.parent.Errorf("naive cache: %v", err)
		}
	})
	if !ca.WaitForCacheSync(ctx) {
		b.Fatal("the naive cache did not start")
	}
	return &naiveReconciler{c: c, count: count, desired: desired}
}

// passAll runs one naive pass of every named cluster and returns how long
// the round took.
func (n *naiveReconciler) passAll(b *testing.B, names []string) time.Duration {
	b.Helper()
	start := time.Now()
	forEach(b, names, func(name string) error { return n.reconcile(b.Context(), name) })
	return time.Since(start)
}

func (n *naiveReconciler) reconcile(ctx context.Context, name string) error {
	for _, want := range n.desired[name] {
		// A conflict (the cache behind someone else's write) is retried
		// after a short backoff, as a requeue would be; each attempt
		// counts.
		if err := retry.RetryOnConflict(retry.DefaultBackoff, func() error { return n.write(ctx, want) }); err != nil {
			return fmt.Errorf("%T %s: %w", want, want.GetName(), err)
		}
	}
	return nil
}

// write creates want or updates the live object to it.
func (n *naiveReconciler) write(ctx context.Context, want client.Object) error {
	live := reflect.New(reflect.TypeOf(want).Elem()).Interface().(client.Object)
	if err := n.c.Get(ctx, client.ObjectKeyFromObject(want), live); err != nil {
		if apierrors.IsNotFound(err) {
			return n.c.Create(ctx, want.DeepCopyObject().(client.Object))
		}
		return err
	}
	version := live.GetResourceVersion()
	copyDesired(live, want)
	if err := n.c.Update(ctx, live); err != nil {
		return err
	}
	if live.GetResourceVersion() != version {
		n.changed.Add(1)
	}
	return nil
}

// copyDesired copies want's state into live, as the reference's
// create-or-update does, except that labels are merged rather than
// replaced: replacing them would drop the label by which the reconciler
// under measurement tracks its objects, and the two would fight.
func copyDesired(live, want client.Object) {
	live.SetLabels(merged(live.GetLabels(), want.GetLabels()))
	live.SetAnnotations(merged(live.GetAnnotations(), want.GetAnnotations()))
	switch l := live.(type) {
	case *corev1.ConfigMap:
		w := want.(*corev1.ConfigMap)
		l.Data, l.BinaryData = w.Data, w.BinaryData
	case *corev1.Service:
		w := want.(*corev1.Service)
		spec := *w.Spec.DeepCopy()
		spec.ClusterIP, spec.ClusterIPs = l.Spec.ClusterIP, l.Spec.ClusterIPs
		spec.IPFamilies, spec.IPFamilyPolicy = l.Spec.IPFamilies, l.Spec.IPFamilyPolicy
		l.Spec = spec
	case *appsv1.StatefulSet:
		w := want.(*appsv1.StatefulSet)
		spec := *w.Spec.DeepCopy()
		spec.Selector, spec.ServiceName = l.Spec.Selector, l.Spec.ServiceName
		spec.VolumeClaimTemplates, spec.PodManagementPolicy = l.Spec.VolumeClaimTemplates, l.Spec.PodManagementPolicy
		spec.Template.Annotations = merged(l.Spec.Template.Annotations, spec.Template.Annotations)
		l.Spec = spec
	case *policyv1.PodDisruptionBudget:
		l.Spec = *want.(*policyv1.PodDisruptionBudget).Spec.DeepCopy()
	}
}

func merged(base, over map[string]string) map[string]string {
	if len(base) == 0 && len(over) == 0 {
		return base
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, over)
	return out
}
