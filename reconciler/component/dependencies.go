package component

import (
	"context"
	"fmt"
	"maps"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// depKey names a referenced ConfigMap or Secret.
type depKey struct {
	kind, namespace, name string
}

// memoLimit bounds the remembered data; past it the memory starts over.
const memoLimit = 4096

// dependencies loads the data of referenced ConfigMaps and Secrets. With a
// cache of their names and versions (set up by SetupWithManager, which
// also watches it) an object whose version did not change since its last
// load is served from memory: a pass over unchanged references makes no
// request. Without one every load reads through the reader.
type dependencies struct {
	versions client.Reader
	reader   client.Reader

	mu   sync.Mutex
	memo map[depKey]memoEntry
}

type memoEntry struct {
	version string
	data    map[string][]byte
}

func newDependencies(versions, reader client.Reader) *dependencies {
	return &dependencies{versions: versions, reader: reader, memo: map[depKey]memoEntry{}}
}

// load returns the data of a ConfigMap (data and binaryData) or Secret,
// and whether it exists. Errors keep the API server's class.
func (d *dependencies) load(ctx context.Context, k depKey) (map[string][]byte, bool, error) {
	if d.versions != nil {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(k.kind))
		if err := d.versions.Get(ctx, client.ObjectKey{Namespace: k.namespace, Name: k.name}, m); err == nil {
			d.mu.Lock()
			e, ok := d.memo[k]
			d.mu.Unlock()
			if ok && e.version == m.ResourceVersion {
				return e.data, true, nil
			}
		}
	}
	var (
		data    map[string][]byte
		version string
		err     error
	)
	key := client.ObjectKey{Namespace: k.namespace, Name: k.name}
	switch k.kind {
	case "ConfigMap":
		cm := &corev1.ConfigMap{}
		if err = d.reader.Get(ctx, key, cm); err == nil {
			data = make(map[string][]byte, len(cm.Data)+len(cm.BinaryData))
			for key, v := range cm.Data {
				data[key] = []byte(v)
			}
			maps.Copy(data, cm.BinaryData)
			version = cm.ResourceVersion
		}
	case "Secret":
		s := &corev1.Secret{}
		if err = d.reader.Get(ctx, key, s); err == nil {
			data, version = s.Data, s.ResourceVersion
		}
	default:
		return nil, false, failure.Invalid(failure.AuthorOperator, "Reference", "references to %s are not supported", k.kind)
	}
	switch {
	case apierrors.IsNotFound(err):
		d.drop(k)
		return nil, false, nil
	case err != nil:
		return nil, false, apierr.Classify(fmt.Errorf("reading %s %s/%s: %w", k.kind, k.namespace, k.name, err))
	}
	d.mu.Lock()
	if len(d.memo) >= memoLimit {
		clear(d.memo)
	}
	d.memo[k] = memoEntry{version: version, data: data}
	d.mu.Unlock()
	return data, true, nil
}

// drop forgets what was loaded of k.
func (d *dependencies) drop(k depKey) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.memo, k)
}
