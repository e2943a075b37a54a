package faults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/opkit-dev/opkit/testkit/internal/reqinfo"
)

// WrapTransport returns a round-tripper that answers a request with an
// injected fault, as a real API server would (a Status body with the right
// code, reason and Retry-After), or passes it to next. Its signature fits
// rest.Config.Wrap and rest.Config.WrapTransport.
func (i *Injector) WrapTransport(next http.RoundTripper) http.RoundTripper {
	return &transport{inj: i, next: next}
}

type transport struct {
	inj  *Injector
	next http.RoundTripper
}

var _ http.RoundTripper = (*transport)(nil)

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	info := reqinfo.Classify(req)
	rule, cut := t.inj.decide(info.Verb, info.Resource)
	if rule == nil {
		return t.next.RoundTrip(req)
	}
	if rule.Fault == WatchCut {
		resp, err := t.next.RoundTrip(req)
		if err == nil && resp.StatusCode == http.StatusOK {
			resp.Body = cutBody(resp.Body, cut)
		}
		return resp, err
	}
	if req.Body != nil {
		_ = req.Body.Close()
	}
	status := statusError(rule, info.Resource, info.Name).ErrStatus
	status.APIVersion, status.Kind = "v1", "Status"
	body, err := json.Marshal(status)
	if err != nil {
		return nil, fmt.Errorf("encoding injected %s: %w", rule.Fault, err)
	}
	code := int(status.Code)
	header := http.Header{"Content-Type": {"application/json"}}
	if s := rule.retryAfterSeconds(); s > 0 && rule.Fault != Conflict && rule.Fault != InternalError {
		header.Set("Retry-After", strconv.Itoa(s))
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", code, http.StatusText(code)),
		StatusCode:    code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}
