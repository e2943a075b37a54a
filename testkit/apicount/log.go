package apicount

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/opkit-dev/opkit/testkit/internal/reqinfo"
)

// Request is one request a Log recorded: what it asked and the status code
// the API server answered (0 when no answer came).
type Request struct {
	// Verb is as in Key.
	Verb string
	// Group, Resource and Subresource name what the request is on; for a
	// non-resource request Resource is the URL path and Group is empty.
	Group, Resource, Subresource string
	// Namespace and Name are those of the request, when it has them.
	Namespace, Name string
	// Status is the HTTP status code of the answer.
	Status int
	// Refusal is the Status object the API server sent with an answer of
	// 400 or more, when it sent one; nil otherwise.
	Refusal *metav1.Status
}

// Log records every request and its answer, in order. It is safe for
// concurrent use. A test that proves an operator's RBAC enough and not
// more reads it: no request answered 403, every rule used.
type Log struct {
	mu       sync.Mutex
	requests []Request
}

// NewLog returns an empty Log.
func NewLog() *Log { return &Log{} }

// WrapTransport returns a round-tripper that records each request and its
// answer; its signature fits rest.Config.Wrap.
func (l *Log) WrapTransport(next http.RoundTripper) http.RoundTripper {
	return &logTransport{log: l, next: next}
}

// Requests returns the requests recorded so far, oldest first.
func (l *Log) Requests() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.requests)
}

type logTransport struct {
	log  *Log
	next http.RoundTripper
}

func (t *logTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	info := reqinfo.Classify(req)
	r := Request{Verb: info.Verb, Group: info.Group, Resource: info.Plural, Subresource: info.Subresource,
		Namespace: info.Namespace, Name: info.Name}
	if info.Plural == "" {
		r.Resource = info.Resource
	}
	resp, err := t.next.RoundTrip(req)
	if resp != nil {
		r.Status = resp.StatusCode
		if resp.StatusCode >= http.StatusBadRequest {
			r.Refusal = readStatus(resp)
		}
	}
	t.log.mu.Lock()
	t.log.requests = append(t.log.requests, r)
	t.log.mu.Unlock()
	return resp, err
}

// readStatus decodes the Status object in an error answer's body and puts
// the body back for the caller; nil when the body holds none.
func readStatus(resp *http.Response) *metav1.Status {
	if resp.Body == nil {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxStatusBody))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil
	}
	// The body is JSON or, for a client that asked for protobuf (the
	// built-in kinds' usual encoding), protobuf; the deserializer reads
	// both.
	obj, _, err := clientgoscheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		return nil
	}
	s, _ := obj.(*metav1.Status)
	return s
}

// maxStatusBody bounds what an error answer's body may hold to be read.
const maxStatusBody = 1 << 20
