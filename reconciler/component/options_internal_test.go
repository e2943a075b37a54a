package component

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
)

func TestOptionsAreCheckedAndDefaulted(t *testing.T) {
	tests := []struct {
		name  string
		rname string
		opts  Options
		field string
	}{
		{"bad name", "Shop Operator", Options{}, "name"},
		{"bad finalizer", "shop.example.com", Options{Finalizer: "a/b/c"}, "component.Options.Finalizer"},
		{"bad service account", "shop.example.com", Options{DefaultServiceAccount: "Deployer!"}, "component.Options.DefaultServiceAccount"},
		{"unknown policy", "shop.example.com", Options{DeletePolicy: "shred"}, "component.Options.DeletePolicy"},
		{"negative interval", "shop.example.com", Options{RetryInterval: -time.Second}, "component.Options.RetryInterval"},
		{"kind without version", "shop.example.com", Options{Kinds: []schema.GroupVersionKind{{Kind: "ConfigMap"}}}, "component.Options.Kinds[0]"},
		{"namespace listed twice", "shop.example.com", Options{Namespaces: []string{"shop", "shop"}}, "component.Options.Namespaces[1]"},
		{"not a namespace name", "shop.example.com", Options{Namespaces: []string{"Shop_Front"}}, "component.Options.Namespaces[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.opts.withDefaults(tt.rname)
			var fe failure.Fielder
			if !errors.Is(err, failure.ErrInvalid) || !errors.As(err, &fe) || fe.FieldPath() != tt.field || failure.AuthorOf(err) != failure.AuthorOperator {
				t.Errorf("error %v: want an invalid-input error on %s blamed on the operator", err, tt.field)
			}
		})
	}

	// Every bad field is reported, not the first alone.
	_, err := Options{DeletePolicy: "shred", RetryInterval: -time.Second, Namespaces: []string{"Shop_Front"}}.withDefaults("shop.example.com")
	for _, field := range []string{"component.Options.DeletePolicy", "component.Options.RetryInterval", "component.Options.Namespaces[0]"} {
		if err == nil || !strings.Contains(err.Error(), field+":") {
			t.Errorf("error %v does not name %s", err, field)
		}
	}

	got, err := Options{}.withDefaults("shop.example.com")
	if err != nil {
		t.Fatal(err)
	}
	got.Clock = nil
	want := Options{
		FieldOwner: "shop.example.com", Finalizer: "shop.example.com/finalizer",
		RequeueInterval: DefaultRequeueInterval, RetryInterval: DefaultRetryInterval,
		MaxConcurrentReconciles: DefaultMaxConcurrentReconciles, MaxTargetClients: DefaultMaxTargetClients,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

// The policy names a component may state are those the object engine
// accepts.
func TestPolicyNamesMatchTheObjectReconciler(t *testing.T) {
	c, err := client.New(&rest.Config{Host: "https://127.0.0.1:1"}, client.Options{Mapper: meta.NewDefaultRESTMapper(nil)})
	if err != nil {
		t.Fatal(err)
	}
	for field, values := range policyValues {
		for _, v := range values {
			var o apply.Options
			switch field {
			case "AdoptionPolicy":
				o.AdoptionPolicy = apply.AdoptionPolicy(v)
			case "UpdatePolicy":
				o.UpdatePolicy = apply.UpdatePolicy(v)
			case "DeletePolicy":
				o.DeletePolicy = apply.DeletePolicy(v)
			case "MissingNamespacesPolicy":
				o.MissingNamespacesPolicy = apply.MissingNamespacesPolicy(v)
			default:
				t.Fatalf("unknown policy field %s", field)
			}
			if _, err := apply.New("shop.example.com", c, o); err != nil {
				t.Errorf("%s %q: the object engine refuses it: %v", field, v, err)
			}
		}
	}
}

func TestBackoffDoublesWithinItsCap(t *testing.T) {
	b := newBackoff(10 * time.Second)
	var got []time.Duration
	for range 6 {
		got = append(got, b.next(key("a"), 0))
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i := range want {
		if lo, hi := want[i]*9/10, want[i]*11/10; got[i] < lo || got[i] > hi {
			t.Errorf("delay %d = %s, want %s ±10%%", i, got[i], want[i])
		}
	}
	if d := b.next(key("a"), 3*time.Second); d > 3300*time.Millisecond {
		t.Errorf("delay %s above the limit of 3s", d)
	}
	b.reset(key("a"))
	if d := b.next(key("a"), 0); d > 1100*time.Millisecond {
		t.Errorf("delay %s after a reset, want about 1s", d)
	}
	if d := b.next(key("b"), 0); d > 1100*time.Millisecond {
		t.Errorf("another component's first delay %s, want about 1s", d)
	}
}
