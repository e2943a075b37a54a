package deploy_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	websitev1alpha1 "github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	websiteoperator "github.com/opkit-dev/opkit/examples/website/operator"
	"github.com/opkit-dev/opkit/reconciler/rbac"
	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
)

// website is the example with a sharded overlay.
func website(t *testing.T) example {
	t.Helper()
	for _, ex := range examples {
		if ex.name == "website" {
			return ex
		}
	}
	t.Fatal("no website example")
	return example{}
}

// The website operator's config/sharded is config/default with three
// replicas that shard the Websites instead of electing a leader: each
// named after its pod, its Lease in the operator's namespace, granted the
// shard member's rules there and no leader election's.
func TestShardedOverlay(t *testing.T) {
	ex := website(t)
	def, objs := build(t, ex.config("default")), build(t, ex.config("sharded"))

	names := func(m manifests) []string {
		var out []string
		for _, n := range m.names() {
			if !strings.Contains(n, "leader-election") && !strings.Contains(n, "manager-role-shard") {
				out = append(out, n)
			}
		}
		return out
	}
	if diff := cmp.Diff(names(def), names(objs)); diff != "" {
		t.Errorf("config/sharded holds other objects than config/default, leader election and sharding aside (-default +sharded):\n%s", diff)
	}
	for _, n := range objs.names() {
		if strings.Contains(n, "leader-election") {
			t.Errorf("config/sharded grants leader election's rules: %s", n)
		}
	}

	d, c := objs.deployment(t)
	if replicas := ptr.Deref(d.Spec.Replicas, 1); replicas != 3 {
		t.Errorf("the Deployment runs %d replicas, want 3", replicas)
	}
	if slices.Contains(c.Args, "--leader-elect") {
		t.Errorf("the sharded replicas elect a leader: %v", c.Args)
	}
	if got := argValue(t, c.Args, "--shard-member"); got != "$(POD_NAME)" {
		t.Errorf("--shard-member=%s, want the pod's name", got)
	}
	if got := argValue(t, c.Args, "--shard-namespace"); got != "$(POD_NAMESPACE)" {
		t.Errorf("--shard-namespace=%s, want the pod's namespace", got)
	}
	fields := map[string]string{}
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			fields[e.Name] = e.ValueFrom.FieldRef.FieldPath
		}
	}
	if diff := cmp.Diff(map[string]string{"POD_NAME": "metadata.name", "POD_NAMESPACE": "metadata.namespace"}, fields); diff != "" {
		t.Errorf("the manager's environment from the pod's fields (-want +got):\n%s", diff)
	}
	checkRestricted(t, d.Spec.Template.Spec)

	sa := &corev1.ServiceAccount{}
	objs.one(t, "ServiceAccount", sa)
	checkBindings(t, objs, sa)
	role := &rbacv1.Role{}
	objs.one(t, "Role", role)
	if role.Namespace != sa.Namespace {
		t.Errorf("the shard member's Role is in %q, its Leases in the operator's namespace %q", role.Namespace, sa.Namespace)
	}
	if diff := cmp.Diff(rbac.ShardRules(), role.Rules); diff != "" {
		t.Errorf("the shard member's Role (-rbac.ShardRules +config):\n%s", diff)
	}
}

// Two replicas of the website operator's binary, run with config/sharded's
// arguments as its ServiceAccount, so with the rights that config grants:
// each joins the ring with its Lease (and is ready only then), the Websites of several namespaces
// are each reconciled by the replica the ring gives them, become Ready,
// and the API server refuses neither replica anything.
func TestShardedReplicasRunAsTheirServiceAccount(t *testing.T) {
	cp := env.Require(t)
	ex := website(t)
	// Applied over config/default; the other tests apply config/default
	// first, which gives the Deployment its arguments back (the shard
	// Role stays, unused).
	objs := deployConfig(t, cp, ex, "sharded")
	_, c := objs.deployment(t)
	sa := &corev1.ServiceAccount{}
	objs.one(t, "ServiceAccount", sa)
	waitBindings(t, cp, objs, sa)
	bin := buildOperator(t, ex)
	kubeconfig := kubeconfigFor(t, cp, token(t, cp, sa))

	members := []string{"website-operator-0", "website-operator-1"}
	var ops []*operator
	for _, m := range members {
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = strings.NewReplacer("$(POD_NAME)", m, "$(POD_NAMESPACE)", sa.Namespace).Replace(a)
		}
		ops = append(ops, startOperator(t, bin, args, kubeconfig, sa.Namespace))
	}

	// Namespaces until each replica owns a Website of the sample.
	ring := shard.NewRing(members, 0)
	gk := websitev1alpha1.GroupVersion.WithKind("Website").GroupKind()
	want := map[string]string{} // namespace → owner of its Website
	owners := map[string]bool{}
	for len(owners) < len(members) {
		if len(want) == 12 {
			t.Fatalf("12 namespaces, and the ring gives all their Websites to %v", owners)
		}
		ns := testkit.Namespace(t, cp.Client)
		owner := ring.Owner(shard.Key(gk, ns, "home"))
		want[ns], owners[owner] = owner, true
	}
	for ns := range want {
		createSamples(t, cp.Client, ex, ns)
	}
	// Both replicas were ready, so both were live members; one may not
	// have seen the other's Lease yet when a Website appeared and claimed
	// it, then handed it over: wait for the ring's owner.
	label := commonsv1alpha1.LabelShardPrefix + websiteoperator.ShardRing
	for ns, owner := range want {
		websiteReady(t, cp.Client, ns)
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
			w := &websitev1alpha1.Website{}
			err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "home"}, w)
			return w.Labels[label], err == nil && w.Labels[label] == owner, err
		}, time.Minute); err != nil {
			t.Errorf("Website %s/home is not owned by %s, whom the ring gives it: %v", ns, owner, err)
		}
		websiteReady(t, cp.Client, ns)
	}
	for _, m := range members {
		lease := &coordinationv1.Lease{}
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: sa.Namespace, Name: m}, lease); err != nil {
			t.Errorf("replica %s has no Lease: %v", m, err)
		} else if lease.Labels[commonsv1alpha1.LabelShardRing] != websiteoperator.ShardRing {
			t.Errorf("Lease %s is not in ring %q: %v", m, websiteoperator.ShardRing, lease.Labels)
		}
	}
	for i, op := range ops {
		if refused := op.refusals(t); len(refused) > 0 {
			t.Errorf("the API server refused replica %s %d requests:\n%s", members[i], len(refused), strings.Join(refused, "\n"))
		}
	}
}
