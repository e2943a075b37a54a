package servertest_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/reconciler/internal/podview"
	"github.com/opkit-dev/opkit/testkit"
)

// A sharded replica's pod view holds the managed pods of its buckets and
// no others; when its buckets change it holds the new ones, and a pod of a
// bucket it does not hold is read from the API server, never missed.
func TestPodViewHoldsThePodsOfItsBuckets(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	const bucketKey = "bucket.shard.opkit.dev/test"
	pod := func(name, bucket string, managed bool) *corev1.Pod {
		l := map[string]string{bucketKey: bucket, "app": "view"}
		if managed {
			l["managed-by"] = "us"
		}
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: l},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.example/c:1"}}},
		}
	}
	for _, p := range []*corev1.Pod{pod("one", "1", true), pod("two", "2", true), pod("three", "3", true), pod("foreign", "1", false)} {
		if err := cp.Client.Create(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}

	var mu sync.Mutex
	buckets := []string{"2", "1"}
	hc, err := rest.HTTPClientFor(cp.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	mapper, err := apiutil.NewDynamicRESTMapper(cp.RESTConfig(), hc)
	if err != nil {
		t.Fatal(err)
	}
	view, err := podview.New(podview.Options{
		Config: cp.RESTConfig(), Scheme: testScheme(), Mapper: mapper,
		Selector:    labels.SelectorFromSet(labels.Set{"managed-by": "us"}),
		BucketLabel: bucketKey,
		Buckets: func() []string {
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(buckets)
		},
		Reader:   cp.Client,
		Interval: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(testkit.Context(t))
	done := make(chan error, 1)
	go func() { done <- view.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("pod view: %v", err)
		}
	})

	names := func(bucket string, sel map[string]string) []string {
		t.Helper()
		list := &corev1.PodList{}
		if err := view.List(t.Context(), bucket, list, client.InNamespace(ns), client.MatchingLabels(sel)); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range list.Items {
			out = append(out, p.Name)
		}
		slices.Sort(out)
		return out
	}
	waitHolds := func(want map[string]bool) {
		t.Helper()
		if _, err := testkit.WaitFor(t.Context(), func(context.Context) (map[string]bool, bool, error) {
			got := map[string]bool{}
			for b := range want {
				got[b] = view.Holds(b)
			}
			return got, cmp.Equal(got, want), nil
		}, 30*time.Second); err != nil {
			t.Fatal(err)
		}
	}

	waitHolds(map[string]bool{"1": true, "2": true, "3": false})
	// From the view: the managed pods of its buckets, not the foreign
	// one, not those of bucket 3.
	if diff := cmp.Diff([]string{"one", "two"}, names("1", map[string]string{"app": "view"})); diff != "" {
		t.Errorf("pods the view holds (-want +got):\n%s", diff)
	}
	// Bucket 3 is not held: read from the API server.
	if diff := cmp.Diff([]string{"three"}, names("3", map[string]string{bucketKey: "3", "managed-by": "us"})); diff != "" {
		t.Errorf("pods of a bucket not held (-want +got):\n%s", diff)
	}

	mu.Lock()
	buckets = []string{"3"}
	mu.Unlock()
	waitHolds(map[string]bool{"1": false, "2": false, "3": true})
	if diff := cmp.Diff([]string{"three"}, names("3", map[string]string{"app": "view"})); diff != "" {
		t.Errorf("pods the view holds after the change (-want +got):\n%s", diff)
	}
	// A pod created in a held bucket appears in the view.
	if err := cp.Client.Create(t.Context(), pod("four", "3", true)); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) ([]string, bool, error) {
		got := names("3", map[string]string{"app": "view"})
		return got, slices.Equal(got, []string{"four", "three"}), nil
	}, 30*time.Second); err != nil {
		t.Fatal(err)
	}

	// No buckets (the replica left the ring): nothing held, every read
	// goes to the API server.
	mu.Lock()
	buckets = nil
	mu.Unlock()
	waitHolds(map[string]bool{"3": false})
	if diff := cmp.Diff([]string{"four", "three"}, names("3", map[string]string{bucketKey: "3", "managed-by": "us"})); diff != "" {
		t.Errorf("pods read without a view (-want +got):\n%s", diff)
	}
}
