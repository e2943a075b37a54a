package deploy_test

import (
	"context"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// The operator's binary, run with the Deployment's arguments as the
// ServiceAccount config/default creates, so with the rights config/default
// grants and no others: it takes the leader election lease, reconciles the
// samples until they converge, records events on them, is refused nothing
// on the way, and serves its metrics over HTTPS to a caller bound to the
// metrics-reader role, refusing one without a token (401) or without the
// role (403). The same binary, as its users' command line, plans the
// converged sample to no change.
func TestOperatorRunsAsItsServiceAccount(t *testing.T) {
	cp := env.Require(t)
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			objs := deploy(t, cp, ex)
			_, c := objs.deployment(t)
			sa := &corev1.ServiceAccount{}
			objs.one(t, "ServiceAccount", sa)
			waitBindings(t, cp, objs, sa)
			bin := buildOperator(t, ex)
			op := startOperator(t, bin, c.Args, kubeconfigFor(t, cp, token(t, cp, sa)), sa.Namespace)

			ns := testkit.Namespace(t, cp.Client)
			volumes(t, cp, ex.volumes)
			createSamples(t, cp.Client, ex, ns)
			ex.converged(t, cp.Client, ns)
			checkCommandLine(t, cp, bin, ex, ns)
			if ex.provoke != nil {
				ex.provoke(t, cp.Client, ns)
			}
			waitEvent(t, cp.Client, ns, ex.kind)

			lease := &coordinationv1.Lease{}
			if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: sa.Namespace, Name: ex.controller}, lease); err != nil {
				t.Errorf("no leader election lease %s/%s: %v", sa.Namespace, ex.controller, err)
			} else if ptr.Deref(lease.Spec.HolderIdentity, "") == "" {
				t.Errorf("lease %s/%s has no holder", sa.Namespace, ex.controller)
			}

			checkMetrics(t, cp, op, ex, metricsReaderRole(t, objs.ofKind("ClusterRole")))

			if refused := op.refusals(t); len(refused) > 0 {
				t.Errorf("the API server refused the operator %d requests:\n%s", len(refused), strings.Join(refused, "\n"))
			}
		})
	}
}

// waitBindings waits until every role config/default binds to sa is in
// force: sa may do what the first rule of each says.
func waitBindings(t *testing.T, cp *controlplane.ControlPlane, objs manifests, sa *corev1.ServiceAccount) {
	t.Helper()
	user := serviceaccount.MakeUsername(sa.Namespace, sa.Name)
	for _, kind := range []string{"Role", "ClusterRole"} {
		for _, u := range objs.ofKind(kind) {
			r := &rbacv1.Role{}
			decode(t, u, r)
			if len(r.Rules) == 0 || len(r.Rules[0].Resources) == 0 {
				continue // the metrics-reader role, bound to nobody
			}
			rule := r.Rules[0]
			waitAllowed(t, cp, user, authorizationv1.ResourceAttributes{
				Namespace: u.GetNamespace(), Verb: rule.Verbs[0], Group: rule.APIGroups[0], Resource: rule.Resources[0],
			})
		}
	}
}

// waitAllowed waits until the API server allows user what attrs
// (ResourceAttributes or NonResourceAttributes) say.
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

// serviceAccount creates a ServiceAccount named name in ns.
func serviceAccount(t *testing.T, cp *controlplane.ControlPlane, ns, name string) *corev1.ServiceAccount {
	t.Helper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if err := cp.Client.Create(t.Context(), sa); err != nil {
		t.Fatal(err)
	}
	return sa
}

// token returns a token of sa, from the TokenRequest API, as the kubelet
// mounts one into the operator's pods.
func token(t *testing.T, cp *controlplane.ControlPlane, sa *corev1.ServiceAccount) string {
	t.Helper()
	tr := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)}}
	if err := cp.Client.SubResource("token").Create(t.Context(), sa, tr); err != nil {
		t.Fatalf("requesting a token of %s/%s: %v", sa.Namespace, sa.Name, err)
	}
	return tr.Status.Token
}
