package servertest_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

var sampleGVK = samplev1alpha1.GroupVersion.WithKind("SampleCluster")

const (
	ringName      = "sample-operator"
	leaseDuration = 10 * time.Second
	expiryMargin  = 5 * time.Second
)

// ring is a test's set of members, all in this process, sharing a fake
// clock that only the test moves.
type ring struct {
	t       *testing.T
	c       client.WithWatch
	ns      string
	clock   *clocktesting.FakeClock
	journal *journal
	members map[string]*replica
}

// replica is one member with its own client, Lease, filtered cache and
// controller, as one operator process would have.
type replica struct {
	member *shard.Member
	cache  cache.Cache
	stop   func()
}

func newRing(t *testing.T, resources int) *ring {
	t.Helper()
	cp := env.Require(t)
	c, err := client.NewWithWatch(cp.RESTConfig(), client.Options{Scheme: testScheme()})
	if err != nil {
		t.Fatal(err)
	}
	r := &ring{
		t: t, c: c, ns: testkit.Namespace(t, cp.Client),
		clock:   clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		journal: newJournal(),
		members: map[string]*replica{},
	}
	for i := range resources {
		sc := &samplev1alpha1.SampleCluster{ObjectMeta: metav1.ObjectMeta{Namespace: r.ns, Name: fmt.Sprintf("cluster-%03d", i)}}
		if err := c.Create(t.Context(), sc); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// join starts a member: it creates its Lease and runs its controller.
func (r *ring) join(name string) *replica {
	r.t.Helper()
	cfg := env.Require(r.t).RESTConfig()
	c, err := client.New(cfg, client.Options{Scheme: testScheme()})
	if err != nil {
		r.t.Fatal(err)
	}
	m, err := shard.New(c, c, shard.Options{
		Ring: ringName, Member: name, Namespace: r.ns,
		Resources:     []schema.GroupVersionKind{sampleGVK},
		Namespaces:    []string{r.ns},
		LeaseDuration: leaseDuration, ExpiryMargin: expiryMargin,
		Clock: r.clock,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: testScheme(),
		Cache: cache.Options{
			DefaultNamespaces: map[string]cache.Config{r.ns: {}},
			ByObject:          m.CacheByObject(&samplev1alpha1.SampleCluster{}, &corev1.ConfigMap{}),
		},
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Logger:                 testkit.QuietLogger(),
		Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		r.t.Fatal(err)
	}
	rec := &recorder{name: name, member: m, cache: mgr.GetClient(), writer: c, journal: r.journal}
	if err := ctrl.NewControllerManagedBy(mgr).For(&samplev1alpha1.SampleCluster{}).Named("shard-" + name).Complete(rec); err != nil {
		r.t.Fatal(err)
	}
	if err := m.Renew(r.t.Context()); err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	rep := &replica{member: m, cache: mgr.GetCache()}
	rep.stop = sync1(func() {
		cancel()
		if err := <-done; err != nil {
			r.t.Errorf("manager of %s: %v", name, err)
		}
	})
	r.t.Cleanup(rep.stop)
	r.members[name] = rep
	return rep
}

// sync1 returns f made safe to call more than once.
func sync1(f func()) func() {
	called := false
	return func() {
		if !called {
			called = true
			f()
		}
	}
}

// names returns the members that are running, sorted.
func (r *ring) names() []string {
	out := make([]string, 0, len(r.members))
	for n := range r.members {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// round renews every running member's Lease, then lets each review the
// assignment once.
func (r *ring) round(ctx context.Context) error {
	for _, n := range r.names() {
		if err := r.members[n].member.Renew(ctx); err != nil {
			return err
		}
	}
	for _, n := range r.names() {
		if _, err := r.members[n].member.Sync(ctx); err != nil {
			return err
		}
	}
	return nil
}

// assignment returns each resource's state, by name.
func (r *ring) assignment(ctx context.Context) (map[string]labelState, error) {
	list := &samplev1alpha1.SampleClusterList{}
	if err := r.c.List(ctx, list, client.InNamespace(r.ns)); err != nil {
		return nil, err
	}
	shardKey, drainKey := r.keys()
	out := map[string]labelState{}
	for _, sc := range list.Items {
		out[sc.Name] = labelState{Owner: sc.Labels[shardKey], Drain: sc.Labels[drainKey]}
	}
	return out, nil
}

func (r *ring) keys() (shardKey, drainKey string) {
	for _, rep := range r.members {
		return rep.member.ShardLabel(), rep.member.DrainLabel()
	}
	return "", ""
}

// expected returns the owner the ring of members gives each resource.
func (r *ring) expected(ctx context.Context, members ...string) (map[string]labelState, error) {
	got, err := r.assignment(ctx)
	if err != nil {
		return nil, err
	}
	hash := shard.NewRing(members, 0)
	want := map[string]labelState{}
	for name := range got {
		want[name] = labelState{Owner: hash.Owner(shard.Key(sampleGVK.GroupKind(), r.ns, name))}
	}
	return want, nil
}

// converge runs rounds until every resource is owned as the ring of
// members says, with no drain pending, and returns that assignment.
func (r *ring) converge(members ...string) map[string]labelState {
	r.t.Helper()
	want, err := r.expected(r.t.Context(), members...)
	if err != nil {
		r.t.Fatal(err)
	}
	got, err := testkit.WaitFor(r.t.Context(), func(ctx context.Context) (map[string]labelState, bool, error) {
		if err := r.round(ctx); err != nil {
			return nil, false, err
		}
		got, err := r.assignment(ctx)
		return got, err == nil && maps.Equal(got, want), err
	}, 60*time.Second)
	if err != nil {
		r.t.Fatalf("the ring of %v did not converge: %v", members, err)
	}
	return got
}

// recorder is a member's controller: it checks ownership, records the pass
// and writes one ConfigMap per resource, labelled with its owner, then asks
// to run again soon so that passes are running whenever a handover starts.
type recorder struct {
	name    string
	member  *shard.Member
	cache   client.Reader
	writer  client.Client
	journal *journal
}

func (rec *recorder) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	sc := &samplev1alpha1.SampleCluster{}
	if err := rec.cache.Get(ctx, req.NamespacedName, sc); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	owns, err := rec.member.Owns(ctx, sc)
	if err != nil || !owns {
		return reconcile.Result{}, err
	}
	ctx, cancel := rec.member.WithLease(ctx)
	defer cancel()
	end := rec.journal.begin(rec.name, req.Name)
	defer end()
	cm := corev1ac.ConfigMap(req.Name, req.Namespace).
		WithLabels(rec.member.ObjectLabels()).
		WithData(map[string]string{"writer": rec.name})
	if err := rec.writer.Apply(ctx, cm, client.FieldOwner("sample-operator"), client.ForceOwnership); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{RequeueAfter: 50 * time.Millisecond}, nil
}
