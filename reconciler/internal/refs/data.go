package refs

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

// Key names a referenced ConfigMap or Secret.
type Key struct {
	// Kind is "ConfigMap" or "Secret".
	Kind string
	// Namespace and Name locate the object.
	Namespace, Name string
}

// memoLimit bounds the remembered data; past it the memory starts over.
const memoLimit = 4096

// Data loads the data of referenced ConfigMaps and Secrets. With a cache of
// their names and versions (NewCache) an object whose version did not
// change since its last load is served from memory: a pass over unchanged
// references makes no request. Without one every load reads through the
// reader.
type Data struct {
	versions client.Reader
	reader   client.Reader

	mu   sync.Mutex
	memo map[Key]memoEntry
}

type memoEntry struct {
	version string
	data    map[string][]byte
}

// NewData returns a Data that checks versions in versions (nil for none)
// and reads through reader.
func NewData(versions, reader client.Reader) *Data {
	return &Data{versions: versions, reader: reader, memo: map[Key]memoEntry{}}
}

// Load returns the data of a ConfigMap (data and binaryData) or Secret,
// and whether it exists. Errors keep the API server's class.
func (d *Data) Load(ctx context.Context, k Key) (map[string][]byte, bool, error) {
	if d.versions != nil {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(k.Kind))
		if err := d.versions.Get(ctx, client.ObjectKey{Namespace: k.Namespace, Name: k.Name}, m); err == nil {
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
	key := client.ObjectKey{Namespace: k.Namespace, Name: k.Name}
	switch k.Kind {
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
		return nil, false, failure.Invalid(failure.AuthorOperator, "Reference", "references to %s are not supported", k.Kind)
	}
	switch {
	case apierrors.IsNotFound(err):
		d.drop(k)
		return nil, false, nil
	case err != nil:
		return nil, false, apierr.Classify(fmt.Errorf("reading %s %s/%s: %w", k.Kind, k.Namespace, k.Name, err))
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
func (d *Data) drop(k Key) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.memo, k)
}

// Exists reports whether the ConfigMap or Secret k exists, reading its
// metadata through r (the cache of names and versions once it runs).
// Errors keep the API server's class.
func Exists(ctx context.Context, r client.Reader, k Key) (bool, error) {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(k.Kind))
	err := r.Get(ctx, client.ObjectKey{Namespace: k.Namespace, Name: k.Name}, m)
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, apierr.Classify(fmt.Errorf("reading %s %s/%s: %w", k.Kind, k.Namespace, k.Name, err))
	}
	return true, nil
}
