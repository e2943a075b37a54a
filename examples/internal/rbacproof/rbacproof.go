// Package rbacproof proves, against a real API server, that the rules an
// operator derives from its configuration are enough and not more: Grant
// applies them (a ServiceAccount, roles and bindings) and returns a
// rest.Config that acts as that ServiceAccount and records every request;
// Check then finds no request refused and every rule used.
package rbacproof

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/opkit-dev/opkit/reconciler/rbac"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// Grant creates a namespace for the operator with its ServiceAccount, the
// objects rbac.Manifests writes for p (opts.Namespace is set to that
// namespace; opts.Namespaces restricts the operator), and returns a
// rest.Config that impersonates the ServiceAccount and records every
// request in the returned Log.
func Grant(t *testing.T, cp *controlplane.ControlPlane, p rbac.Permissions, opts rbac.ManifestOptions) (*rest.Config, *apicount.Log, string) {
	t.Helper()
	ns := testkit.Namespace(t, cp.Client)
	opts.Namespace = ns
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: opts.ServiceAccount}}
	if err := cp.Client.Create(t.Context(), sa); err != nil {
		t.Fatal(err)
	}
	objs, err := rbac.Manifests(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if err := cp.Client.Create(t.Context(), o); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("granting %s %s: %v", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), err)
		}
		if o.GetNamespace() == "" {
			t.Cleanup(func() { _ = cp.Client.Delete(t.Context(), o) })
		}
	}
	cfg := cp.RESTConfig()
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + ns + ":" + opts.ServiceAccount}
	log := apicount.NewLog()
	cfg.Wrap(log.WrapTransport)
	return cfg, log, ns
}

// Check fails the test for every request answered 403 Forbidden (but for
// writes into a namespace being deleted, which say nothing of rights) and for
// every verb on a resource that p grants and no request used, unless
// unused explains it ("<verb> <resource>[.<group>]" → why no test reaches
// it). A list no request used on a resource that was watched is expected:
// informers stream their initial list through the watch, and list is
// their fallback against a server that cannot. It logs how many requests
// each rule served, then reports every finding in one error, last, so
// that the end of a long test log shows it.
func Check(t *testing.T, log *apicount.Log, p rbac.Permissions, unused map[string]string) {
	t.Helper()
	var problems []string
	used := map[string]int{}
	for _, r := range log.Requests() {
		if r.Status == http.StatusForbidden && !terminating(r.Refusal) {
			problems = append(problems, fmt.Sprintf("refused: %s %s (namespace %q, name %q)", r.Verb, resourceOf(r.Group, r.Resource, r.Subresource), r.Namespace, r.Name))
		}
		verb := r.Verb
		if verb == "deletecollection" {
			verb = "delete"
		}
		used[verb+" "+resourceOf(r.Group, r.Resource, r.Subresource)]++
	}
	lines, unusedRules := tally(p, used, unused)
	t.Logf("requests per granted verb:\n%s", strings.Join(lines, "\n"))
	problems = append(problems, unusedRules...)
	if len(problems) > 0 {
		t.Errorf("the derived rules are not enough, or more than needed:\n%s", strings.Join(problems, "\n"))
	}
}

// tally returns, sorted, a line per granted verb with the requests it
// served, and a finding per granted verb that none used and unused does
// not explain.
func tally(p rbac.Permissions, used map[string]int, unused map[string]string) (lines, problems []string) {
	for _, rule := range slices.Concat(p.Namespaced, p.Cluster) {
		for _, g := range rule.APIGroups {
			for _, res := range rule.Resources {
				for _, v := range rule.Verbs {
					k := v + " " + resourceOf(g, res, "")
					n := used[k]
					why, explained := unused[k]
					switch {
					case explained && n > 0:
						lines = append(lines, fmt.Sprintf("%5d  %s (listed as unreachable: %s)", n, k, why))
						continue
					case v == "list" && n == 0 && used["watch "+resourceOf(g, res, "")] > 0, explained:
					case n == 0:
						problems = append(problems, "granted and never used: "+k)
					}
					lines = append(lines, fmt.Sprintf("%5d  %s", n, k))
				}
			}
		}
	}
	slices.Sort(lines)
	slices.Sort(problems)
	return lines, problems
}

// terminating tells whether a refusal is the API server's refusal of a
// write into a namespace being deleted: a 403 that says nothing of rights
// (a cluster-wide operator meets it for the objects of a test that has
// just ended).
func terminating(s *metav1.Status) bool {
	if s == nil || s.Details == nil {
		return false
	}
	return slices.ContainsFunc(s.Details.Causes, func(c metav1.StatusCause) bool {
		return c.Type == corev1.NamespaceTerminatingCause
	})
}

// resourceOf names a resource as "<resource>[/<subresource>][.<group>]".
func resourceOf(group, resource, subresource string) string {
	s := resource
	if subresource != "" {
		s += "/" + subresource
	}
	if group != "" {
		s += "." + group
	}
	return s
}

// errLeaderLost is the error a manager returns when its leader election
// ends; it also ends that way when the manager is stopped, and which of
// the two Start reports then is a race inside the manager.
const errLeaderLost = "leader election lost"

// Start starts mgr and returns a function that stops it and reports an
// error Start returned, other than the loss of leadership that stopping
// causes.
func Start(t *testing.T, mgr manager.Manager) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	return func() {
		t.Helper()
		cancel()
		if err := <-done; err != nil && err.Error() != errLeaderLost {
			t.Errorf("manager: %v", err)
		}
	}
}
