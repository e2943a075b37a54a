package apicount

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/serializer"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/opkit-dev/opkit/testkit/internal/reqinfo"
)

// Write is one create, update, patch, delete or deletecollection a
// WriteLog recorded, with the object the API server answered.
type Write struct {
	// Verb, Group, Resource, Subresource, Namespace and Name are as in
	// Request; a create's Name is taken from the answer.
	Verb, Group, Resource, Subresource, Namespace, Name string
	// DryRun is the request's dryRun query parameter ("All" for a dry
	// run, "" for a real write).
	DryRun string
	// Status is the HTTP status code of the answer, 0 when none came.
	Status int
	// Body is the answer's body as JSON when the write succeeded (the
	// object as the API server stored it, or would have, for a dry run);
	// nil otherwise.
	Body []byte
}

// WriteLog records every write a client sends, with its dryRun parameter
// and the object the API server answered, in order, so that a test can
// tell a dry run from a real write and compare what was written with what
// was planned. It is safe for concurrent use.
type WriteLog struct {
	mu     sync.Mutex
	writes []Write
}

// NewWriteLog returns an empty WriteLog.
func NewWriteLog() *WriteLog { return &WriteLog{} }

// WrapTransport returns a round-tripper that records each write and its
// answer; its signature fits rest.Config.Wrap.
func (l *WriteLog) WrapTransport(next http.RoundTripper) http.RoundTripper {
	return &writeTransport{log: l, next: next}
}

// Writes returns the writes recorded so far, oldest first.
func (l *WriteLog) Writes() []Write {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.writes)
}

// Reset forgets what was recorded.
func (l *WriteLog) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes = nil
}

// dryRunOf returns the dryRun setting of a write: the query parameter, or,
// for a delete, the DeleteOptions in its body.
func dryRunOf(req *http.Request) string {
	if v := req.URL.Query().Get("dryRun"); v != "" || req.Method != http.MethodDelete || req.Body == nil {
		return v
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(body))
	var opts struct {
		DryRun []string `json:"dryRun"`
	}
	if err != nil || json.Unmarshal(body, &opts) != nil {
		return ""
	}
	return strings.Join(opts.DryRun, ",")
}

// asJSON returns body as JSON: itself, or, for an answer in the API
// server's protobuf encoding (controller-runtime's typed clients ask for
// it), the object decoded with client-go's scheme and encoded as JSON;
// nil when it cannot be.
func asJSON(contentType string, body []byte) []byte {
	if !strings.Contains(contentType, "protobuf") {
		return body
	}
	obj, _, err := serializer.NewCodecFactory(clientgoscheme.Scheme).UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		return nil
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	return out
}

// nameIn returns metadata.name of the object in body, "" when none.
func nameIn(body []byte) string {
	var obj struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if json.Unmarshal(body, &obj) != nil {
		return ""
	}
	return obj.Metadata.Name
}

type writeTransport struct {
	log  *WriteLog
	next http.RoundTripper
}

func (t *writeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	info := reqinfo.Classify(req)
	if !reqinfo.IsWrite(info.Verb) {
		return t.next.RoundTrip(req)
	}
	w := Write{Verb: info.Verb, Group: info.Group, Resource: info.Plural, Subresource: info.Subresource,
		Namespace: info.Namespace, Name: info.Name, DryRun: dryRunOf(req)}
	resp, err := t.next.RoundTrip(req)
	if resp != nil {
		w.Status = resp.StatusCode
		if resp.StatusCode < http.StatusBadRequest && resp.Body != nil {
			body, rerr := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(body))
			if rerr == nil {
				w.Body = asJSON(resp.Header.Get("Content-Type"), body)
				w.Name = cmp.Or(w.Name, nameIn(w.Body))
			}
		}
	}
	t.log.mu.Lock()
	t.log.writes = append(t.log.writes, w)
	t.log.mu.Unlock()
	return resp, err
}
