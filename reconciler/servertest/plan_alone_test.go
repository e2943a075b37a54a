package servertest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// startPlanner runs, in a manager of its own built from rc, a reconciler
// set up for planning alone, as a command-line client would with its
// user's kubeconfig; the writes it sends are recorded.
func startPlanner(t *testing.T, rc *rest.Config, ns string) (*reconciler.Reconciler[*sampleCluster], *apicount.WriteLog) {
	t.Helper()
	writes := apicount.NewWriteLog()
	rc.Wrap(writes.WrapTransport)
	cfg := baseConfig()
	cfg.Namespaces = []string{ns}
	r, err := reconciler.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(rc, ctrl.Options{Scheme: testScheme(), Cache: cacheOpts, Client: clientOpts,
		Metrics: metricsserver.Options{BindAddress: "0"}, Logger: testkit.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetupForPlanning(mgr); err != nil {
		t.Fatal(err)
	}
	testkit.RunManager(t, mgr) // Plan waits for the cache, which starts with the manager
	return r, writes
}

// A reconciler set up for planning alone plans what the operator's next
// pass does and writes nothing at all, not even an event: it runs no
// controller. A planner whose user lacks the rights of a write is told
// which verb on which resource its dry run lacks.
func TestPlanningAloneWritesNothing(t *testing.T) {
	cr := newCluster("", "alone", map[string]map[string]int32{"server": {"a": 1}})
	f := newPlanProof(t, baseConfig(), cr)
	f.create(cr)
	cp := env.Require(t)
	planner, writes := startPlanner(t, cp.RESTConfig(), f.key.Namespace)

	converged, err := planner.Plan(t.Context(), f.live())
	if err != nil || converged.HasChanges() {
		t.Fatalf("the converged cluster plans changes (%v): %v", err, f.planned(converged))
	}
	desired := f.live()
	setReplicas(desired, "server", "a", 2)
	plan, err := planner.Plan(t.Context(), desired)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]string{"statefulsets alone-server-a": {"update"}}, f.planned(plan)); diff != "" {
		t.Errorf("planned writes (-want +got):\n%s", diff)
	}
	for _, w := range writes.Writes() {
		if w.DryRun != "All" {
			t.Errorf("the planner sent a real %s of %s %s", w.Verb, w.Resource, w.Name)
		}
	}

	reader := "reader-" + f.key.Namespace
	grantRead(t, cp.Client, f.key.Namespace, reader)
	rc := cp.RESTConfig()
	rc.Impersonate = rest.ImpersonationConfig{UserName: reader}
	refused, _ := startPlanner(t, rc, f.key.Namespace)
	_, err = refused.Plan(t.Context(), desired)
	var dryRun *apply.DryRunError
	if !errors.As(err, &dryRun) || !apierrors.IsForbidden(err) {
		t.Fatalf("the error %v of a planner without write rights is not a refused dry run", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "update") || !strings.Contains(msg, `resource "statefulsets"`) {
		t.Errorf("the error %q does not name the verb and the resource", msg)
	}
}

// grantRead lets user read everything in ns, and write nothing.
func grantRead(t *testing.T, c client.Client, ns, user string) {
	t.Helper()
	for _, o := range []client.Object{
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reader"},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"get", "list", "watch"}}}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reader"},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "reader"},
			Subjects: []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}}},
	} {
		if err := c.Create(t.Context(), o); err != nil {
			t.Fatal(err)
		}
	}
}
