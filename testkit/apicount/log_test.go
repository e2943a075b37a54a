package apicount_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/testkit/apicount"
)

// A Log records what each request asked and what the server answered.
func TestLogRecordsRequestsAndAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusForbidden)
		}
	}))
	defer srv.Close()
	log := apicount.NewLog()
	c := &http.Client{Transport: log.WrapTransport(http.DefaultTransport)}
	for _, req := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/namespaces/shop/configmaps/settings"},
		{http.MethodPut, "/apis/shop.example.com/v1/namespaces/shop/shops/front/status"},
		{http.MethodGet, "/version"},
	} {
		r, err := http.NewRequestWithContext(t.Context(), req.method, srv.URL+req.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	want := []apicount.Request{
		{Verb: "get", Resource: "configmaps", Namespace: "shop", Name: "settings", Status: 200},
		{Verb: "update", Group: "shop.example.com", Resource: "shops", Subresource: "status", Namespace: "shop", Name: "front", Status: 403},
		{Verb: "get", Resource: "/version", Status: 200},
	}
	if diff := cmp.Diff(want, log.Requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}
