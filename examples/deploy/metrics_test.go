package deploy_test

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// checkMetrics scrapes the operator's metrics endpoint with no token, with
// the token of an account without role, and with the token of an account
// bound to readerRole: only the last gets the metrics, its controller's
// among them.
func checkMetrics(t *testing.T, cp *controlplane.ControlPlane, op *operator, ex example, readerRole string) {
	t.Helper()
	ns := testkit.Namespace(t, cp.Client)
	stranger := serviceAccount(t, cp, ns, "stranger")
	scraper := serviceAccount(t, cp, ns, "scraper")
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "scraper-"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: readerRole},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: scraper.Name, Namespace: ns}},
	}
	if err := cp.Client.Create(t.Context(), binding); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cp.Client.Delete(context.Background(), binding) })
	// The operator caches a refusal for a while: ask only once the binding
	// is in force.
	waitAllowed(t, cp, serviceaccount.MakeUsername(ns, scraper.Name), authorizationv1.NonResourceAttributes{Path: "/metrics", Verb: "get"})

	tests := []struct {
		name  string
		token string
		want  int
	}{
		{"no token", "", http.StatusUnauthorized},
		{"an account without the metrics-reader role", token(t, cp, stranger), http.StatusForbidden},
		{"an account bound to the metrics-reader role", token(t, cp, scraper), http.StatusOK},
	}
	want := `controller_runtime_reconcile_total{controller="` + ex.controller + `"`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, err := scrape(t.Context(), "https://"+op.metrics+"/metrics", tt.token)
			if err != nil {
				t.Fatal(err)
			}
			if code != tt.want {
				t.Fatalf("GET /metrics: %d, want %d: %s", code, tt.want, body)
			}
			if code == http.StatusOK && !strings.Contains(body, want) {
				t.Errorf("the metrics lack %s", want)
			}
		})
	}
}

// scrape gets url over HTTPS with a bearer token (none when empty). The
// operator's certificate is self-signed: the test trusts it blindly, as
// the ServiceMonitor does.
func scrape(ctx context.Context, url, token string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, "", err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // a self-signed test certificate
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// metricsReaderRole returns the name of the ClusterRole that grants get
// on /metrics.
func metricsReaderRole(t *testing.T, roles manifests) string {
	t.Helper()
	for _, u := range roles {
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
