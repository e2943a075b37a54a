package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/crash"
)

// benchOperator is an operator under measurement: its requests counted,
// its writes timed, its events counted, its passes callable.
type benchOperator struct {
	counter *apicount.Counter
	events  *eventCounter
	run     *crash.Run

	mu        sync.Mutex
	reconcile func(ctx context.Context, req ctrl.Request) error
	synced    func(ctx context.Context) bool
}

// setup is called by the operator process with what the benchmark needs.
func (o *benchOperator) setup(reconcile func(ctx context.Context, req ctrl.Request) error, synced func(ctx context.Context) bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reconcile, o.synced = reconcile, synced
}

// wire builds a manager restricted to ns with the given cache and client
// options, its recorders counted, without logs (a benchmark prints every
// log line).
func (o *benchOperator) manager(cfg *rest.Config, ns string, cacheOpts cache.Options, clientOpts client.Options) (countingManager, error) {
	cacheOpts.DefaultNamespaces = map[string]cache.Config{ns: {}}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:     testScheme(),
		Cache:      cacheOpts,
		Client:     clientOpts,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Logger:     testkit.QuietLogger(),
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		return countingManager{}, err
	}
	return countingManager{Manager: mgr, events: o.events}, nil
}

// startBenchOperator starts process (built with o's manager) in ns with
// its requests counted, and waits until its caches synced.
func startBenchOperator(b *testing.B, cp *controlplane.ControlPlane, process func(o *benchOperator) func(ctx context.Context, cfg *rest.Config) error) *benchOperator {
	b.Helper()
	o := &benchOperator{counter: apicount.New(), events: newEventCounter()}
	cfg := cp.RESTConfig()
	cfg.Wrap(o.counter.WrapTransport)
	h, err := crash.New(crash.Options{Config: cfg, Operator: process(o)})
	if err != nil {
		b.Fatal(err)
	}
	o.run = h.Start(0)
	b.Cleanup(func() {
		if err := o.run.Stop(); err != nil {
			b.Errorf("operator: %v", err)
		}
	})
	_, err = testkit.WaitFor(b.Context(), func(ctx context.Context) (bool, bool, error) {
		o.mu.Lock()
		synced := o.synced
		o.mu.Unlock()
		return synced != nil && synced(ctx), synced != nil && synced(ctx), nil
	}, time.Minute)
	if err != nil {
		b.Fatalf("the operator did not start: %v", err)
	}
	return o
}

// passAll runs one pass of every named resource of ns, workers at once,
// as a resync would.
func (o *benchOperator) passAll(ctx context.Context, ns string, names []string, workers int) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		next = make(chan string)
	)
	for range workers {
		wg.Go(func() {
			for name := range next {
				if err := o.reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKey{Namespace: ns, Name: name}}); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s: %w", name, err))
					mu.Unlock()
				}
			}
		})
	}
	for _, n := range names {
		next <- n
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		return fmt.Errorf("%d passes failed, first: %w", len(errs), errs[0])
	}
	return nil
}

// serving waits until the operator serves: its watches deliver a new
// resource at once. For a second or two after an operator starts, the
// API server delivers the watch events of its fresh informers late (a
// resource created then is passed about 2 s later; one created after
// that, within milliseconds), so a cold converge timed from the
// operator's start would count its start-up. serving creates probe,
// waits until passed reports the operator acted on it, deletes it and
// waits until it and every object the operator made for it (those of
// kinds in ns carrying ownerKey) are gone, leaving the namespace as it
// found it.
func (o *benchOperator) serving(b *testing.B, c client.Client, probe client.Object, passed func(client.Object) bool, kinds []schema.GroupVersionKind, ownerKey string) {
	b.Helper()
	ctx := b.Context()
	if err := c.Create(ctx, probe); err != nil {
		b.Fatal(err)
	}
	key := client.ObjectKeyFromObject(probe)
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (bool, bool, error) {
		if err := c.Get(ctx, key, probe); err != nil {
			return false, false, err
		}
		return passed(probe), passed(probe), nil
	}, time.Minute)
	if err != nil {
		b.Fatalf("the operator did not pass the probe %s: %v", key, err)
	}
	if err := c.Delete(ctx, probe); err != nil {
		b.Fatal(err)
	}
	_, err = testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		if err := c.Get(ctx, key, probe); !apierrors.IsNotFound(err) {
			return "the probe is still there", false, client.IgnoreNotFound(err)
		}
		left, err := ownedObjects(ctx, c, key.Namespace, ownerKey, kinds)
		if err != nil {
			return "", false, err
		}
		if len(left) > 0 {
			return fmt.Sprintf("%s %s is still there (of %d)", left[0].GetKind(), left[0].GetName(), len(left)), false, nil
		}
		return "", true, nil
	}, time.Minute)
	if err != nil {
		b.Fatalf("the probe %s or its objects did not go: %v", key, err)
	}
}

// seldom evaluates cond at most once per interval (the first time at
// once), reporting the last state between: a benchmark's wait for its
// resources to settle lists them all, and at testkit.PollInterval that
// listing would take a share of the two cores the operator is measured
// on, which the raw writer does not pay.
func seldom[T any](interval time.Duration, cond testkit.Condition[T]) testkit.Condition[T] {
	var (
		last  T
		next  time.Time
		first = true
	)
	return func(ctx context.Context) (T, bool, error) {
		if !first && time.Now().Before(next) {
			return last, false, nil
		}
		first, next = false, time.Now().Add(interval)
		state, done, err := cond(ctx)
		if err == nil {
			last = state
		}
		return state, done, err
	}
}

// settleInterval is how often a benchmark looks whether its resources
// settled.
const settleInterval = time.Second

// lastCreate returns how many objects of the given resources the run
// created since since and when the last create went out.
func lastCreate(ws []crash.Write, resources []string, since time.Time) (int, time.Time) {
	var (
		n    int
		last time.Time
	)
	for _, w := range ws {
		if w.Verb == "create" && slices.Contains(resources, w.Resource) && !w.At.Before(since) {
			n++
			if w.At.After(last) {
				last = w.At
			}
		}
	}
	return n, last
}

// editCount is how many live edits a benchmark reverts.
const editCount = 5

// revertEdits changes a value of each ConfigMap through the test's client
// and waits, on a watch, until the operator wrote it back. It returns the
// latencies (from the edit's answer to the revert's event) and the
// operator's requests meanwhile, until it is quiet again, events aside.
func (o *benchOperator) revertEdits(b *testing.B, c client.WithWatch, ns string, names []string) ([]time.Duration, apicount.Snapshot) {
	b.Helper()
	ctx := b.Context()
	before := o.counter.Snapshot()
	var latencies []time.Duration
	for _, name := range names {
		cm := &corev1.ConfigMap{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, cm); err != nil {
			b.Fatal(err)
		}
		want := cm.DeepCopy().Data
		for k := range cm.Data {
			cm.Data[k] = "edited by hand"
		}
		if len(cm.Data) == 0 {
			cm.Data = map[string]string{"edited": "by hand"}
		}
		if err := c.Update(ctx, cm); err != nil {
			b.Fatal(err)
		}
		edited := time.Now()
		if err := waitReverted(ctx, c, cm, want); err != nil {
			b.Fatal(err)
		}
		latencies = append(latencies, time.Since(edited))
	}
	// the revert's write is counted before its event reaches the watch; a
	// status write that follows it, once the operator is quiet again
	o.waitQuiet(b)
	return latencies, objectRequests(o.counter.Snapshot().Sub(before))
}

// quietFor is how long an operator must make no write to count as quiet.
const quietFor = 2 * time.Second

// waitQuiet waits until the operator has made no write, events and leases
// aside, for quietFor.
func (o *benchOperator) waitQuiet(b *testing.B) {
	b.Helper()
	last, since := objectRequests(o.counter.Snapshot()).Writes(), time.Now()
	if _, err := testkit.WaitFor(b.Context(), func(context.Context) (int, bool, error) {
		if n := objectRequests(o.counter.Snapshot()).Writes(); n != last {
			last, since = n, time.Now()
		}
		return last, time.Since(since) >= quietFor, nil
	}, time.Minute); err != nil {
		b.Fatalf("the operator does not stop writing: %v", err)
	}
}

// statusWrites is the number of writes of a status subresource in s.
func statusWrites(s apicount.Snapshot) int {
	n := 0
	for k, v := range s {
		if k.IsWrite() && strings.HasSuffix(k.Resource, "/status") {
			n += v
		}
	}
	return n
}

// waitReverted waits, on a watch from the edit cm, until the ConfigMap
// holds want again, for a minute at most. A watch the API server ends
// (on a busy machine) is opened again from the ConfigMap as it is then.
func waitReverted(ctx context.Context, c client.WithWatch, cm *corev1.ConfigMap, want map[string]string) error {
	deadline := time.After(time.Minute)
	seen := cm.ResourceVersion
	for {
		w, err := c.Watch(ctx, &corev1.ConfigMapList{}, client.InNamespace(cm.Namespace), client.MatchingFields{"metadata.name": cm.Name},
			&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: seen}})
		if err != nil {
			return err
		}
		for open := true; open; {
			select {
			case ev, ok := <-w.ResultChan():
				got, isCM := ev.Object.(*corev1.ConfigMap)
				switch {
				case !ok:
					open = false
					now := &corev1.ConfigMap{}
					if err := c.Get(ctx, client.ObjectKeyFromObject(cm), now); err != nil {
						return err
					}
					if now.ResourceVersion != cm.ResourceVersion && equalData(now.Data, want) {
						return nil
					}
					seen = now.ResourceVersion
				case isCM && got.ResourceVersion != cm.ResourceVersion && equalData(got.Data, want):
					w.Stop()
					return nil
				case isCM:
					seen = got.ResourceVersion
				}
			case <-deadline:
				w.Stop()
				return fmt.Errorf("the edit of ConfigMap %s was not reverted within a minute", cm.Name)
			}
		}
	}
}

func equalData(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// medianMax returns the median and the largest of ds.
func medianMax(ds []time.Duration) (time.Duration, time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)-1]
}

// benchNamespace is testkit.Namespace for a benchmark that must not share
// the machine with the previous one's cleanup: at the end of the benchmark
// it waits until the namespace and everything in it are gone.
func benchNamespace(b *testing.B, c client.Client) string {
	b.Helper()
	var name string
	b.Cleanup(func() {
		if err := namespaceGone(context.Background(), c, name); err != nil {
			b.Errorf("namespace %s: %v", name, err)
		}
	})
	name = testkit.Namespace(b, c)
	return name
}

// dropNamespace deletes the namespace name and waits until it and
// everything in it are gone.
func dropNamespace(ctx context.Context, c client.Client, name string) error {
	err := c.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return namespaceGone(ctx, c, name)
}

// namespaceGone waits until the namespace name is gone.
func namespaceGone(ctx context.Context, c client.Client, name string) error {
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		err := c.Get(ctx, client.ObjectKey{Name: name}, &corev1.Namespace{})
		if apierrors.IsNotFound(err) {
			return "gone", true, nil
		}
		return "terminating", false, err
	}, 10*time.Minute)
	return err
}
