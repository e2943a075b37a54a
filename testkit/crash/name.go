package crash

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// protobufMagic starts every object the API server's protobuf encoding
// writes.
var protobufMagic = []byte("k8s\x00")

// createdName reads metadata.name from a create's body, JSON or the API
// server's protobuf, through a copy of the body; "" when it cannot.
func createdName(req *http.Request) string {
	if req.GetBody == nil {
		return ""
	}
	body, err := req.GetBody()
	if err != nil {
		return ""
	}
	defer func() { _ = body.Close() }()
	b, err := io.ReadAll(body)
	if err != nil {
		return ""
	}
	if strings.Contains(req.Header.Get("Content-Type"), "protobuf") {
		return protobufName(b)
	}
	var obj struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return ""
	}
	return obj.Metadata.Name
}

// protobufName reads the name of a protobuf-encoded object: an envelope
// (runtime.Unknown) whose raw bytes start, as every API object's do, with
// its ObjectMeta in field 1, which PartialObjectMetadata reads alone.
func protobufName(b []byte) string {
	if !bytes.HasPrefix(b, protobufMagic) {
		return ""
	}
	var envelope runtime.Unknown
	if err := envelope.Unmarshal(b[len(protobufMagic):]); err != nil {
		return ""
	}
	var meta metav1.PartialObjectMetadata
	if err := meta.Unmarshal(envelope.Raw); err != nil {
		return ""
	}
	return meta.Name
}
