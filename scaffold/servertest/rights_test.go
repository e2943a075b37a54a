package servertest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// checkDeployedRights deploys the project's config/default (kustomize,
// server-side apply) and sees its Deployment Available on kwok nodes;
// then runs the binary make build wrote with the Deployment's arguments,
// acting as the ServiceAccount config/default creates, through a proxy
// that records every request. It takes the sample through its life and
// scrapes the metrics as a caller bound to the metrics-reader role: no
// request may be refused, and every right config/default grants the
// account must have served a request (or be listed, with the reason, in
// p.unreachable).
func checkDeployedRights(t *testing.T, dir, bin string, p project) {
	t.Helper()
	cp := env.Require(t)
	objs := deploy(t, cp, dir)
	sa := &corev1.ServiceAccount{}
	objs.one(t, "ServiceAccount", sa)
	d := &appsv1.Deployment{}
	objs.one(t, "Deployment", d)
	grants := objs.granted(t, sa)
	if len(grants) == 0 {
		t.Fatal("config/default binds no role to the operator's account")
	}
	for _, g := range grants {
		r := g.rules[0]
		waitAllowed(t, cp, serviceaccount.MakeUsername(sa.Namespace, sa.Name), authorizationv1.ResourceAttributes{
			Namespace: g.namespace, Verb: r.Verbs[0], Group: r.APIGroups[0], Resource: r.Resources[0],
		})
	}
	kubeconfig, log := recordAs(t, cp, sa)
	t.Cleanup(func() {
		// A step that timed out may have waited on a refused request.
		if r := refusals(log); t.Failed() && len(r) > 0 {
			t.Logf("the API server refused the operator:\n%s", strings.Join(r, "\n"))
		}
	})
	op := startOperator(t, bin, d.Spec.Template.Spec.Containers[0].Args, kubeconfig, sa.Namespace)

	ns := testkit.Namespace(t, cp.Client)
	cr := createSample(t, cp.Client, dir, p.sample(), ns)
	p.life(t, cp.Client, cr, log)
	scrape(t, cp, op, objs)
	checkRights(t, log, grants, p.unreachable)
}

// scrape gets the operator's metrics as an account bound to the
// metrics-reader ClusterRole of config/default: the operator asks the API
// server who the caller is and whether it may (the rights of
// config/rbac's metrics-auth-role), and serves its controller's metrics.
func scrape(t *testing.T, cp *controlplane.ControlPlane, op *operator, objs manifests) {
	t.Helper()
	ns := testkit.Namespace(t, cp.Client)
	scraper := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "scraper"}}
	if err := cp.Client.Create(t.Context(), scraper); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "scraper-"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: metricsReader(t, objs)},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: scraper.Name, Namespace: ns}},
	}
	if err := cp.Client.Create(t.Context(), binding); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cp.Client.Delete(context.Background(), binding) })
	// The operator caches a refusal for a while: ask only once the binding
	// is in force.
	waitAllowed(t, cp, serviceaccount.MakeUsername(ns, scraper.Name), authorizationv1.NonResourceAttributes{Path: "/metrics", Verb: "get"})
	code, body, err := get(t.Context(), "https://"+op.metrics+"/metrics", token(t, cp, scraper))
	if err != nil {
		t.Fatal(err)
	}
	if code != http.StatusOK || !strings.Contains(body, "controller_runtime_reconcile_total") {
		t.Errorf("GET /metrics as the scraper: %d, want 200 and the controller's metrics:\n%s", code, tail(body, 10))
	}
}

// metricsReader returns the name of the ClusterRole of config/default
// that grants get on /metrics.
func metricsReader(t *testing.T, objs manifests) string {
	t.Helper()
	for _, u := range objs.ofKind("ClusterRole") {
		r := &rbacv1.ClusterRole{}
		decode(t, u, r)
		for _, rule := range r.Rules {
			if len(rule.NonResourceURLs) == 1 && rule.NonResourceURLs[0] == "/metrics" {
				return r.Name
			}
		}
	}
	t.Fatal("config/default has no ClusterRole granting get on /metrics")
	return ""
}

// waitAllowed waits until the API server allows user what attrs
// (ResourceAttributes or NonResourceAttributes) say: a binding just
// created is in force.
func waitAllowed(t *testing.T, cp *controlplane.ControlPlane, user string, attrs any) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (authorizationv1.SubjectAccessReviewStatus, bool, error) {
		sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{User: user}}
		switch a := attrs.(type) {
		case authorizationv1.ResourceAttributes:
			sar.Spec.ResourceAttributes = &a
		case authorizationv1.NonResourceAttributes:
			sar.Spec.NonResourceAttributes = &a
		}
		if err := cp.Client.Create(ctx, sar); err != nil {
			return authorizationv1.SubjectAccessReviewStatus{}, false, err
		}
		return sar.Status, sar.Status.Allowed, nil
	}, time.Minute); err != nil {
		t.Fatalf("%s is not allowed %+v: %v", user, attrs, err)
	}
}
