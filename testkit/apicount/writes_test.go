package apicount_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/testkit/apicount"
)

// A WriteLog records writes only, tells a dry run from a real write (by
// the query, or by a delete's body), and keeps what the server answered.
func TestWriteLogTellsDryRunsFromWrites(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			_, _ = w.Write([]byte(`{"metadata":{"name":"generated-x1"}}`))
		}
	}))
	defer srv.Close()
	log := apicount.NewWriteLog()
	c := &http.Client{Transport: log.WrapTransport(http.DefaultTransport)}
	for _, req := range []struct{ method, path, body string }{
		{http.MethodGet, "/api/v1/namespaces/shop/configmaps/settings", ""},
		{http.MethodPost, "/api/v1/namespaces/shop/configmaps?dryRun=All", `{}`},
		{http.MethodPost, "/api/v1/namespaces/shop/configmaps", `{}`},
		{http.MethodDelete, "/api/v1/namespaces/shop/configmaps/settings", `{"dryRun":["All"]}`},
		{http.MethodDelete, "/api/v1/namespaces/shop/configmaps/settings", `{}`},
	} {
		r, err := http.NewRequestWithContext(t.Context(), req.method, srv.URL+req.path, strings.NewReader(req.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
	created := []byte(`{"metadata":{"name":"generated-x1"}}`)
	want := []apicount.Write{
		{Verb: "create", Resource: "configmaps", Namespace: "shop", Name: "generated-x1", DryRun: "All", Status: 200, Body: created},
		{Verb: "create", Resource: "configmaps", Namespace: "shop", Name: "generated-x1", Status: 200, Body: created},
		{Verb: "delete", Resource: "configmaps", Namespace: "shop", Name: "settings", DryRun: "All", Status: 200, Body: []byte{}},
		{Verb: "delete", Resource: "configmaps", Namespace: "shop", Name: "settings", Status: 200, Body: []byte{}},
	}
	if diff := cmp.Diff(want, log.Writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	log.Reset()
	if got := log.Writes(); len(got) != 0 {
		t.Errorf("after Reset: %v", got)
	}
}
