package apicount_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/opkit-dev/opkit/testkit/apicount"
)

// A Log records what each request asked and what the server answered.
func TestLogRecordsRequestsAndAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut {
			return
		}
		contentType, body := "application/json", []byte(refusal)
		if strings.Contains(r.URL.Path, "/configmaps/") {
			contentType, body = runtime.ContentTypeProtobuf, protobufRefusal(t)
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	log := apicount.NewLog()
	c := &http.Client{Transport: log.WrapTransport(http.DefaultTransport)}
	for _, req := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/namespaces/shop/configmaps/settings"},
		{http.MethodPut, "/apis/shop.example.com/v1/namespaces/shop/shops/front/status"},
		{http.MethodPut, "/api/v1/namespaces/shop/configmaps/prices"},
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
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusForbidden && len(body) == 0 {
			t.Errorf("the caller read %q after the log, want the body the server sent", body)
		}
	}
	want := []apicount.Request{
		{Verb: "get", Resource: "configmaps", Namespace: "shop", Name: "settings", Status: 200},
		{Verb: "update", Group: "shop.example.com", Resource: "shops", Subresource: "status", Namespace: "shop", Name: "front", Status: 403,
			Refusal: terminating()},
		{Verb: "update", Resource: "configmaps", Namespace: "shop", Name: "prices", Status: 403, Refusal: terminating()},
		{Verb: "get", Resource: "/version", Status: 200},
	}
	if diff := cmp.Diff(want, log.Requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// refusal is the body the API server sends when it refuses a write into a
// namespace being deleted.
const refusal = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",` +
	`"message":"shops.shop.example.com \"front\" is forbidden: unable to create new content in namespace shop because it is being terminated",` +
	`"reason":"Forbidden","details":{"causes":[{"reason":"NamespaceTerminating","message":"namespace shop is being terminated","field":"metadata.namespace"}]},"code":403}`

// terminating is the Status that refusal and protobufRefusal encode.
func terminating() *metav1.Status {
	return &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Reason: metav1.StatusReasonForbidden, Code: 403,
		Message: "shops.shop.example.com \"front\" is forbidden: unable to create new content in namespace shop because it is being terminated",
		Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{Type: "NamespaceTerminating", Message: "namespace shop is being terminated", Field: "metadata.namespace"}}},
	}
}

// protobufRefusal is the refusal as the API server sends it to a client
// that asked for protobuf.
func protobufRefusal(t *testing.T) []byte {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(clientgoscheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		t.Fatal("no protobuf serializer")
	}
	body, err := runtime.Encode(clientgoscheme.Codecs.EncoderForVersion(info.Serializer, metav1.Unversioned), terminating())
	if err != nil {
		t.Fatal(err)
	}
	return body
}
