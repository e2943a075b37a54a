// Package rbacproof proves, against a real API server, that the rules an
// operator derives from its configuration are enough and not more: Grant
// applies them (a ServiceAccount, roles and bindings) and returns a
// rest.Config that acts as that ServiceAccount and records every request;
// Check then finds no request refused and every rule used.
package rbacproof

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

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
// each rule served.
func Check(t *testing.T, log *apicount.Log, p rbac.Permissions, unused map[string]string) {
	t.Helper()
	used := map[string]int{}
	for _, r := range log.Requests() {
		if r.Status == http.StatusForbidden && !terminating(r.Refusal) {
			t.Errorf("refused: %s %s (namespace %q, name %q)", r.Verb, resourceOf(r.Group, r.Resource, r.Subresource), r.Namespace, r.Name)
		}
		verb := r.Verb
		if verb == "deletecollection" {
			verb = "delete"
		}
		used[verb+" "+resourceOf(r.Group, r.Resource, r.Subresource)]++
	}
	var lines []string
	for _, rule := range slices.Concat(p.Namespaced, p.Cluster) {
		for _, g := range rule.APIGroups {
			for _, res := range rule.Resources {
				for _, v := range rule.Verbs {
					k := v + " " + resourceOf(g, res, "")
					n := used[k]
					lines = append(lines, fmt.Sprintf("%5d  %s", n, k))
					if v == "list" && n == 0 && used["watch "+resourceOf(g, res, "")] > 0 {
						continue
					}
					if why, ok := unused[k]; n == 0 && !ok {
						t.Errorf("granted and never used: %s", k)
					} else if ok && n > 0 {
						t.Logf("listed as unreachable but used %d times: %s (%s)", n, k, why)
					}
				}
			}
		}
	}
	slices.Sort(lines)
	t.Logf("requests per granted verb:\n%s", strings.Join(lines, "\n"))
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
