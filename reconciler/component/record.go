package component

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/apply"
)

// A render record keeps what a component's last render produced: the
// digest of the inputs it was rendered for, its revision and its objects.
// A pass renders only when the inputs' digest differs from the record's;
// between renders it applies the recorded objects, so that a chart with
// random values converges and then writes nothing. The record lives in a
// Secret beside the component (its objects may hold Secrets), owned by the
// component, so that a restart of the operator renders nothing again and
// a lost status is rebuilt from it with the revision it had.
type record struct {
	// uid is the component's: a record of an earlier component of the same
	// name is not this one's.
	uid      types.UID
	digest   string
	revision int64
	// objects is the render as the record Secret holds it: the objects'
	// JSON, gzipped. Held so between passes rather than as objects, it
	// takes a small part of their memory (the objects of one component
	// repeat most of their keys and values); a pass decodes its own copy.
	objects []byte
}

// Keys of a record Secret's data, and its type.
const (
	recordUIDKey      = "uid"
	recordDigestKey   = "digest"
	recordRevisionKey = "revision"
	recordObjectsKey  = "objects.json.gz"
	recordSecretType  = corev1.SecretType("opkit.dev/render")
	// maxRecordBytes keeps a record within a Secret's 1 MiB, with room
	// for its metadata.
	maxRecordBytes = 900 * 1024
)

// records reads and writes the render records of one reconciler's
// components, remembering the last one of each: a pass over a component
// whose record is known reads nothing.
type records struct {
	name   string
	kind   string
	client client.Client
	reader client.Reader
	scheme *runtime.Scheme

	// zip encodes the records this reconciler writes.
	zip compressors

	mu   sync.Mutex
	memo map[types.NamespacedName]*record
	// absent marks components known to have no record.
	absent map[types.NamespacedName]bool
}

func newRecords(name, kind string, c client.Client, reader client.Reader, scheme *runtime.Scheme) *records {
	return &records{name: name, kind: kind, client: c, reader: reader, scheme: scheme,
		memo: map[types.NamespacedName]*record{}, absent: map[types.NamespacedName]bool{}}
}

// key is where the record of comp lives: in the namespace its references
// live in (none for a cluster-scoped component without a target
// namespace, which keeps its record in memory only), under a name derived
// from the component's.
func (rs *records) key(comp Component) types.NamespacedName {
	ns := referenceNamespace(comp)
	if ns == "" {
		return types.NamespacedName{}
	}
	sum := sha256.Sum256([]byte(rs.name + "/" + rs.kind + "/" + comp.GetNamespace() + "/" + comp.GetName()))
	suffix := "-render-" + hex.EncodeToString(sum[:])[:10]
	name := comp.GetName()
	if len(name)+len(suffix) > 253 {
		name = name[:253-len(suffix)]
	}
	return types.NamespacedName{Namespace: ns, Name: name + suffix}
}

// get returns the record of the component key, nil when it has none. It
// reads the Secret once per component and process.
func (rs *records) get(ctx context.Context, key types.NamespacedName, comp Component) (*record, error) {
	if rec, ok := rs.remembered(key, comp); ok {
		return rec, nil
	}
	sk := rs.key(comp)
	if sk.Name == "" {
		return nil, nil
	}
	s := &corev1.Secret{}
	err := rs.reader.Get(ctx, sk, s)
	switch {
	case apierrors.IsNotFound(err):
		rs.mu.Lock()
		rs.absent[key] = true
		rs.mu.Unlock()
		return nil, nil
	case err != nil:
		return nil, apierr.Classify(fmt.Errorf("reading the render record %s: %w", sk, err))
	}
	rec, err := decodeRecord(s)
	if err != nil {
		// Unreadable: rendered again, and overwritten.
		return nil, nil //nolint:nilerr // an unreadable record is no record
	}
	rs.mu.Lock()
	rs.memo[key] = rec
	rs.mu.Unlock()
	return ifOwned(rec, comp), nil
}

// remembered returns what is remembered of the record of the component
// key, and whether anything is: its record, or that it has none.
func (rs *records) remembered(key types.NamespacedName, comp Component) (*record, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rec, known := rs.memo[key]
	if known && rec.uid == comp.GetUID() || rs.absent[key] {
		return ifOwned(rec, comp), true
	}
	return nil, false
}

// prefetch starts reading the record of the component key, unless it is
// known, so that a later get answers from memory; the returned function
// waits for the read. A failed read is not remembered: get reads again
// and reports it.
func (rs *records) prefetch(ctx context.Context, key types.NamespacedName, comp Component) (wait func()) {
	if _, ok := rs.remembered(key, comp); ok || rs.key(comp).Name == "" {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = rs.get(ctx, key, comp)
	}()
	return func() { <-done }
}

// ifOwned returns rec when it is comp's.
func ifOwned(rec *record, comp Component) *record {
	if rec == nil || rec.uid != comp.GetUID() {
		return nil
	}
	return rec
}

// put stores rec as the record of comp. A record too large for a Secret is
// kept in memory only and reported by the error, which the pass records as
// a warning: a restart of the operator then renders the component again.
func (rs *records) put(ctx context.Context, key types.NamespacedName, comp Component, rec *record) error {
	rs.mu.Lock()
	rs.memo[key] = rec
	delete(rs.absent, key)
	rs.mu.Unlock()
	sk := rs.key(comp)
	if sk.Name == "" {
		return nil
	}
	data := rec.objects
	if len(data) > maxRecordBytes {
		return fmt.Errorf("the render record of revision %d takes %d KiB compressed, more than a Secret holds: it is kept in memory only, and a restart of the operator renders the component again", rec.revision, len(data)/1024)
	}
	gvk, err := apiutil.GVKForObject(comp, rs.scheme)
	if err != nil {
		return err
	}
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: sk.Namespace, Name: sk.Name}}
	_, owner := apply.OwnerLabel(rs.name, ownerID(key))
	s.Labels = map[string]string{rs.name + "/render-of": owner}
	s.Annotations = map[string]string{rs.name + "/component": gvk.Kind + " " + ownerID(key)}
	s.Type = recordSecretType
	s.Data = map[string][]byte{
		recordUIDKey:      []byte(rec.uid),
		recordDigestKey:   []byte(rec.digest),
		recordRevisionKey: []byte(strconv.FormatInt(rec.revision, 10)),
		recordObjectsKey:  data,
	}
	if comp.GetNamespace() == sk.Namespace || comp.GetNamespace() == "" {
		s.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(comp, gvk)}
	}
	err = rs.client.Create(ctx, s, client.FieldOwner(rs.name))
	if apierrors.IsAlreadyExists(err) {
		err = rs.client.Update(ctx, s, client.FieldOwner(rs.name))
	}
	if err != nil {
		return apierr.Classify(fmt.Errorf("writing the render record %s: %w", sk, err))
	}
	return nil
}

// forget drops what is remembered of a component that is gone (its record
// goes with it, through its owner reference).
func (rs *records) forget(key types.NamespacedName) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	delete(rs.memo, key)
	delete(rs.absent, key)
}

// reuse returns the recorded objects for a pass to apply when rec is a
// render of the inputs digest at revision: copies of their own, decoded
// for each call. ok is false when rec is nil, of other inputs or another
// revision, or does not decode (a record is checked when read, so only
// in theory): the pass renders then.
func (rec *record) reuse(digest string, revision int64) (objects []client.Object, ok bool) {
	if rec == nil || rec.digest != digest || rec.revision != revision {
		return nil, false
	}
	objects, err := decodeObjects(rec.objects)
	return objects, err == nil
}

// newRecord records objects as rendered for digest at revision, encoded
// as the record Secret holds them, each with its type set.
func newRecord(uid types.UID, digest string, revision int64, objects []client.Object, scheme *runtime.Scheme, zip *compressors) (*record, error) {
	raw := make([]map[string]any, 0, len(objects))
	for _, o := range objects {
		if u, ok := o.(*unstructured.Unstructured); ok {
			raw = append(raw, u.Object)
			continue
		}
		content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			return nil, fmt.Errorf("recording %T %s: %w", o, o.GetName(), err)
		}
		u := &unstructured.Unstructured{Object: content}
		gvk := o.GetObjectKind().GroupVersionKind()
		if gvk.Empty() {
			if gvk, err = apiutil.GVKForObject(o, scheme); err != nil {
				return nil, fmt.Errorf("recording %T %s: %w", o, o.GetName(), err)
			}
		}
		u.SetGroupVersionKind(gvk)
		raw = append(raw, u.Object)
	}
	data, err := zip.encode(raw)
	if err != nil {
		return nil, err
	}
	return &record{uid: uid, digest: digest, revision: revision, objects: data}, nil
}

// compressors encode records, reusing their gzip writers: a writer holds
// about a megabyte of tables, which a new one allocates and clears, more
// work than compressing the record of a small component. The zero value
// is ready to use.
type compressors struct {
	pool sync.Pool
}

// encode returns the objects' JSON, gzipped.
func (c *compressors) encode(raw []map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	zw, ok := c.pool.Get().(*gzip.Writer)
	if ok {
		zw.Reset(&buf)
	} else {
		zw = gzip.NewWriter(&buf)
	}
	defer c.pool.Put(zw)
	if err := json.NewEncoder(zw).Encode(raw); err != nil {
		return nil, fmt.Errorf("encoding the render record: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("encoding the render record: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeRecord reads a record Secret; one whose objects do not decode is
// refused.
func decodeRecord(s *corev1.Secret) (*record, error) {
	revision, err := strconv.ParseInt(string(s.Data[recordRevisionKey]), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("render record %s: revision: %w", s.Name, err)
	}
	data := s.Data[recordObjectsKey]
	if _, err := decodeObjects(data); err != nil {
		return nil, fmt.Errorf("render record %s: %w", s.Name, err)
	}
	return &record{uid: types.UID(s.Data[recordUIDKey]), digest: string(s.Data[recordDigestKey]), revision: revision, objects: data}, nil
}

// decodeObjects decodes what compressors.encode encoded.
func decodeObjects(data []byte) ([]client.Object, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	// Integers decode as int64, as in any unstructured object.
	var raw []any
	if err := utiljson.Unmarshal(plain, &raw); err != nil {
		return nil, err
	}
	out := make([]client.Object, 0, len(raw))
	for _, v := range raw {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("an object is a %T", v)
		}
		out = append(out, &unstructured.Unstructured{Object: m})
	}
	return out, nil
}
