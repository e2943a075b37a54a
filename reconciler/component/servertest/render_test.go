package servertest_test

import (
	"context"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/generators/helm"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// randomOperator runs an operator whose component is the random chart
// (testdata/random: a password drawn with randAlphaNum, one drawn unless a
// lookup finds it, a pre-install hook Job), counting its requests and its
// passes.
type randomOperator struct {
	*operator
	counter *apicount.Counter
	passes  *atomic.Int32
}

func startRandomOperator(t *testing.T, ns, name string) randomOperator {
	t.Helper()
	cp := env.Require(t)
	chart, err := helm.New(os.DirFS("testdata"), "random", helm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := randomOperator{counter: apicount.New(), passes: &atomic.Int32{}}
	o.operator = startOperator(t, cp, ns, setup{name: name, generator: chart, counter: o.counter,
		opts: component.Options{RequeueInterval: time.Hour},
		hooks: func(r *component.Reconciler[*shop.Shop]) {
			r.WithPostReconcileHook(func(context.Context, client.Client, *shop.Shop) error {
				o.passes.Add(1)
				return nil
			})
		}})
	return o
}

// objectWrites counts the writes of a snapshot other than events and the
// component's own status.
func objectWrites(d apicount.Snapshot) int {
	n := 0
	for k, v := range d {
		if k.IsWrite() && !strings.HasPrefix(k.Resource, "events") && !strings.HasSuffix(k.Resource, "/status") {
			n += v
		}
	}
	return n
}

// passes triggers n passes of the shop and waits until they ran.
func (o randomOperator) triggerPasses(t *testing.T, ns, name string, n int) {
	t.Helper()
	before := o.passes.Load()
	for range n {
		// One at a time: triggers of one key queued together run once.
		// The count is read before the trigger: its pass may end before
		// Trigger returns.
		want := o.passes.Load() + 1
		if err := o.r.Trigger(t.Context(), ns, name); err != nil {
			t.Fatal(err)
		}
		if _, err := testkit.WaitFor(t.Context(), func(context.Context) (int32, bool, error) {
			return o.passes.Load(), o.passes.Load() >= want, nil
		}, time.Minute); err != nil {
			t.Fatalf("no pass after a trigger (%d passes since the first): %v", o.passes.Load()-before, err)
		}
	}
}

// secretData reads one key of a Secret.
func secretData(t *testing.T, c client.Client, ns, name, key string) string {
	t.Helper()
	s := &corev1.Secret{}
	if err := c.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, s); err != nil {
		t.Fatal(err)
	}
	return string(s.Data[key])
}

// A chart that draws a password at random converges and then writes
// nothing: passes between changes of the component's inputs apply what the
// last render produced, without rendering again, so the password does not
// rotate and nothing loops through the reconciler's own watch.
func TestRandomValuesAreDrawnOnce(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	o := startRandomOperator(t, ns, "")
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome"})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	waitEvent(t, cp.Client, ns, "front", componentv1alpha1.ReasonReady) // its write counted
	password := secretData(t, cp.Client, ns, "front-password", "password")

	before := o.counter.Snapshot()
	o.triggerPasses(t, ns, "front", 5)
	if d := o.counter.Snapshot().Sub(before); objectWrites(d) != 0 || d.Total() != 0 {
		t.Errorf("five passes over an unchanged component made requests:\n%s", d)
	}
	if got := secretData(t, cp.Client, ns, "front-password", "password"); got != password {
		t.Errorf("the password changed from %q to %q", password, got)
	}
	got := &shop.Shop{}
	if err := cp.Client.Get(t.Context(), key, got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Revision != 1 {
		t.Errorf("revision %d after passes over unchanged inputs, want 1", got.Status.Revision)
	}
}

// A new operator process (the same reconciler, started again) renders
// nothing again: the render record beside the component holds what the
// last render produced, so no random value is drawn anew and nothing is
// written.
func TestRestartKeepsTheRender(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	first := startRandomOperator(t, ns, "")
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome"})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	password := secretData(t, cp.Client, ns, "front-password", "password")
	kept := secretData(t, cp.Client, ns, "front-kept", "password")
	first.stop()

	second := startRandomOperator(t, ns, first.name)
	second.triggerPasses(t, ns, "front", 2)
	d := second.counter.Snapshot()
	if n := objectWrites(d); n != 0 {
		t.Errorf("the restarted operator wrote %d objects:\n%s", n, d)
	}
	if got := secretData(t, cp.Client, ns, "front-password", "password"); got != password {
		t.Errorf("the drawn password changed across the restart: %q, then %q", password, got)
	}
	if got := secretData(t, cp.Client, ns, "front-kept", "password"); got != kept {
		t.Errorf("the looked-up password changed across the restart: %q, then %q", kept, got)
	}
}

// A component whose status is lost (wiped by hand, restored from an old
// backup) is noticed at once and rebuilt from its render record: the same
// revision, nothing written to objects that still match, and the install
// hook (a migration Job) not run again. The next change is an upgrade to
// the next revision.
func TestLostStatusIsRebuiltWithItsRevision(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	o := startRandomOperator(t, ns, "")
	s := newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome"})
	key := client.ObjectKeyFromObject(s)
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	if err := updateShop(t, cp.Client, key, func(s *shop.Shop) { s.Spec.Message = "second" }); err != nil {
		t.Fatal(err)
	}
	waitShop(t, cp.Client, key, 2*time.Minute, func(s *shop.Shop) bool {
		return s.Status.Revision == 2 && s.Status.State == componentv1alpha1.StateReady
	})

	before := o.counter.Snapshot()
	wiped := &shop.Shop{}
	if err := cp.Client.Get(t.Context(), key, wiped); err != nil {
		t.Fatal(err)
	}
	wiped.Status = shop.ShopStatus{}
	if err := cp.Client.Status().Update(t.Context(), wiped); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rebuilt := waitShop(t, cp.Client, key, time.Minute, func(s *shop.Shop) bool {
		return s.Status.State == componentv1alpha1.StateReady && len(s.Status.Inventory.Items) > 0
	})
	t.Logf("status rebuilt %s after the wipe", time.Since(start).Round(time.Millisecond))
	if rebuilt.Status.Revision != 2 {
		t.Errorf("revision %d after the rebuild, want 2", rebuilt.Status.Revision)
	}
	d := o.counter.Snapshot().Sub(before)
	if n := objectWrites(d); n != 0 {
		t.Errorf("the rebuild wrote %d objects (the hook Job: %d creates):\n%s", n, d[apicount.Key{Verb: "create", Resource: "jobs.batch"}], d)
	}

	if err := updateShop(t, cp.Client, key, func(s *shop.Shop) { s.Spec.Message = "third" }); err != nil {
		t.Fatal(err)
	}
	waitShop(t, cp.Client, key, 2*time.Minute, func(s *shop.Shop) bool {
		return s.Status.Revision == 3 && s.Status.State == componentv1alpha1.StateReady
	})
	upgraded := &corev1.ConfigMap{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "front-upgraded"}, upgraded); err != nil {
		t.Fatalf("the post-upgrade hook of revision 3: %v", err)
	}
	if upgraded.Data["revision"] != "3" {
		t.Errorf("the post-upgrade hook says revision %q, want 3", upgraded.Data["revision"])
	}
	if n := o.counter.Snapshot().Sub(before)[apicount.Key{Verb: "create", Resource: "jobs.batch"}]; n != 0 {
		t.Errorf("the install hook ran again: %d Job creates", n)
	}
}

// An annotation that is not an input of the rendering (a note, a tool's
// bookkeeping) changes nothing and writes nothing; one under the
// reconciler's name starts a new revision.
func TestUnrelatedAnnotationWritesNothing(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	o := startRandomOperator(t, ns, "")
	s := newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome"})
	key := client.ObjectKeyFromObject(s)
	ready := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	// The Ready event is sent after the status that says so; once it is
	// stored, every write of the passes so far has been counted.
	waitEvent(t, cp.Client, ns, "front", componentv1alpha1.ReasonReady)

	before := o.counter.Snapshot()
	if err := updateShop(t, cp.Client, key, func(s *shop.Shop) {
		s.Annotations = map[string]string{"example.com/note": "touched"}
	}); err != nil {
		t.Fatal(err)
	}
	o.triggerPasses(t, ns, "front", 1)
	if d := o.counter.Snapshot().Sub(before); d.Writes() != 0 {
		t.Errorf("an unrelated annotation caused writes:\n%s", d)
	}
	got := &shop.Shop{}
	if err := cp.Client.Get(t.Context(), key, got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Revision != ready.Status.Revision || got.Status.ProcessingDigest != ready.Status.ProcessingDigest {
		t.Errorf("an unrelated annotation moved the revision %d → %d or the digest", ready.Status.Revision, got.Status.Revision)
	}

	if err := updateShop(t, cp.Client, key, func(s *shop.Shop) {
		s.Annotations[o.name+"/tier"] = "gold"
	}); err != nil {
		t.Fatal(err)
	}
	waitShop(t, cp.Client, key, time.Minute, func(s *shop.Shop) bool {
		return s.Status.Revision == ready.Status.Revision+1 && s.Status.State == componentv1alpha1.StateReady
	})
}

// updateShop changes the shop and writes it, retrying conflicts.
func updateShop(t *testing.T, c client.Client, key client.ObjectKey, change func(*shop.Shop)) error {
	t.Helper()
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		s := &shop.Shop{}
		if err := c.Get(ctx, key, s); err != nil {
			return false, false, err
		}
		change(s)
		err := c.Update(ctx, s)
		return err == nil, err == nil, client.IgnoreNotFound(err)
	}, time.Minute)
	return err
}
