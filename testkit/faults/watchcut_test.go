package faults_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// watchCut is a rule cutting every configmaps watch after about d.
func watchCut(d time.Duration) faults.Rule {
	return faults.Rule{Resources: []string{"configmaps"}, Fault: faults.WatchCut, Rate: 1, CutAfter: d}
}

// closed waits until w's result channel closes, draining events, and fails
// the test when it stays open for a minute (an uncut watch lasts far
// longer: the API server ends watches after 30 minutes at the earliest).
func closed(t *testing.T, w watch.Interface) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return
			}
		case <-deadline:
			w.Stop()
			t.Fatal("the watch was not cut")
		}
	}
}

func TestWatchCutEndsTheStream(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	clients := map[string]func(*faults.Injector) client.WithWatch{
		"transport": func(inj *faults.Injector) client.WithWatch {
			cfg := cp.RESTConfig()
			cfg.Wrap(inj.WrapTransport)
			c, err := client.NewWithWatch(cfg, client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper()})
			require.NoError(t, err)
			return c
		},
		"client": func(inj *faults.Injector) client.WithWatch { return inj.Client(cp.Client) },
	}
	for name, newClient := range clients {
		t.Run(name, func(t *testing.T) {
			inj, err := faults.New(faults.Options{Seed: 5, Rules: []faults.Rule{watchCut(200 * time.Millisecond)}})
			require.NoError(t, err)
			c := newClient(inj)

			require.NoError(t, c.Create(t.Context(), configMap(ns, "before-"+name)), "a create is never cut")
			w, err := c.Watch(t.Context(), &corev1.ConfigMapList{}, client.InNamespace(ns))
			require.NoError(t, err)
			closed(t, w)

			history := inj.History()
			require.Len(t, history, 1, "only the watch was cut: %+v", history)
			h := history[0]
			require.Equal(t, faults.Injection{Request: 2, Fault: faults.WatchCut, Verb: "watch", Resource: "configmaps", CutAfter: h.CutAfter}, h)
			require.GreaterOrEqual(t, h.CutAfter, 100*time.Millisecond)
			require.Less(t, h.CutAfter, 300*time.Millisecond)
		})
	}
}

// An informer whose watches are cut every few hundred milliseconds still
// sees every object: client-go resumes from the last resource version.
func TestInformerResumesAfterCuts(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	inj, err := faults.New(faults.Options{Seed: 9, Rules: []faults.Rule{watchCut(300 * time.Millisecond)}})
	require.NoError(t, err)
	cfg := cp.RESTConfig()
	cfg.Wrap(inj.WrapTransport)
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)

	lw := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "configmaps", ns, fields.Everything())
	store, ctrl := cache.NewInformerWithOptions(cache.InformerOptions{ListerWatcher: lw, ObjectType: &corev1.ConfigMap{}, Handler: cache.ResourceEventHandlerFuncs{}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go ctrl.RunWithContext(ctx)

	const n = 12
	for i := range n {
		require.NoError(t, cp.Client.Create(t.Context(), configMap(ns, fmt.Sprintf("cm-%02d", i))))
		if i == n/2 {
			// wait for a cut between the creates, so both halves cross one
			_, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
				return inj.Total(), inj.Total() >= 2, nil
			}, time.Minute)
			require.NoError(t, err)
		}
	}
	got, err := testkit.WaitFor(t.Context(), func(context.Context) ([]string, bool, error) {
		keys := store.ListKeys()
		return keys, len(keys) == n, nil
	}, time.Minute)
	require.NoError(t, err)
	want := make([]string, n)
	for i := range n {
		want[i] = fmt.Sprintf("%s/cm-%02d", ns, i)
	}
	if diff := cmp.Diff(want, slices.Sorted(slices.Values(got))); diff != "" {
		t.Errorf("informer store (-want +got):\n%s", diff)
	}
	require.GreaterOrEqual(t, inj.Total(), 2, "the informer's watches were cut")
}

func TestWatchCutNeedsADuration(t *testing.T) {
	_, err := faults.New(faults.Options{Rules: []faults.Rule{{Fault: faults.WatchCut, Rate: 1}}})
	require.ErrorContains(t, err, "rules[0]: rule cutAfter 0s for WatchCut: must be positive")
}
