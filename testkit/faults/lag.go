package faults

import (
	"context"
	"reflect"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// Lag makes a client's reads lag behind the client's own writes, as a
// manager's cache does while its informers have not seen a write yet:
// while held, an object the wrapped client creates, updates or patches
// keeps answering that client's reads as it did before the write, until
// Release. A test proves with it that an operator never acts on a read
// that predates its own previous write, without depending on how busy the
// machine is:
//
//	lag := faults.NewLag(schema.GroupKind{Kind: "ConfigMap"})
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{NewClient: lag.NewClient})
//	lag.Hold()
//	... edit an object, let the operator revert it, run more passes ...
//	lag.Release()
//
// Reads are remembered per object and Go type (a typed read and a
// metadata read of one object are told apart); an object not read in a
// type before the write is answered as it is.
type Lag struct {
	kinds map[schema.GroupKind]bool

	mu   sync.Mutex
	held bool
	// last is the last answer per object and type; nil for not found.
	last   map[lagRead]client.Object
	frozen map[lagObject]bool
	served int
}

type lagObject struct {
	gk              schema.GroupKind
	namespace, name string
}

type lagRead struct {
	object lagObject
	typ    reflect.Type
}

// NewLag returns a Lag for objects of kinds; none means every kind. It
// lets everything through until Hold.
func NewLag(kinds ...schema.GroupKind) *Lag {
	l := &Lag{kinds: map[schema.GroupKind]bool{}, last: map[lagRead]client.Object{}, frozen: map[lagObject]bool{}}
	for _, gk := range kinds {
		l.kinds[gk] = true
	}
	return l
}

// Hold makes every later write freeze the reads of the object written.
func (l *Lag) Hold() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = true
}

// Release lets every read through again, as a cache that caught up.
func (l *Lag) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = false
	clear(l.frozen)
}

// Served returns how many reads were answered with a version older than
// the client's own write.
func (l *Lag) Served() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.served
}

// Client returns c with its reads lagging behind its writes.
func (l *Lag) Client(c client.Client) client.Client { return &lagClient{Client: c, lag: l} }

// NewClient is a controller-runtime client.NewClientFunc building a
// manager's client through l.
func (l *Lag) NewClient(cfg *rest.Config, opts client.Options) (client.Client, error) {
	c, err := client.New(cfg, opts)
	if err != nil {
		return nil, err
	}
	return l.Client(c), nil
}

type lagClient struct {
	client.Client
	lag *Lag
}

// object names obj's object when its kind lags.
func (c *lagClient) object(obj client.Object, namespace, name string) (lagObject, bool) {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil || len(c.lag.kinds) > 0 && !c.lag.kinds[gvk.GroupKind()] {
		return lagObject{}, false
	}
	return lagObject{gk: gvk.GroupKind(), namespace: namespace, name: name}, true
}

// Get answers a frozen object as it was last read before the write.
func (c *lagClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	o, ok := c.object(obj, key.Namespace, key.Name)
	if !ok {
		return c.Client.Get(ctx, key, obj, opts...)
	}
	read := lagRead{object: o, typ: reflect.TypeOf(obj)}
	l := c.lag
	l.mu.Lock()
	stale, remembered := l.last[read]
	if l.frozen[o] && remembered {
		l.served++
		l.mu.Unlock()
		if stale == nil {
			return apierrors.NewNotFound(schema.GroupResource{Group: o.gk.Group, Resource: strings.ToLower(o.gk.Kind) + "s"}, key.Name)
		}
		reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(stale.DeepCopyObject()).Elem())
		return nil
	}
	l.mu.Unlock()
	err := c.Client.Get(ctx, key, obj, opts...)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.frozen[o] {
		if err != nil {
			l.last[read] = nil
		} else if cp, ok := obj.DeepCopyObject().(client.Object); ok {
			l.last[read] = cp
		}
	}
	return err
}

// wrote freezes obj's reads while the lag is held.
func (c *lagClient) wrote(obj client.Object, err error) error {
	if o, ok := c.object(obj, obj.GetNamespace(), obj.GetName()); ok && err == nil {
		c.lag.mu.Lock()
		if c.lag.held {
			c.lag.frozen[o] = true
		}
		c.lag.mu.Unlock()
	}
	return err
}

// Create creates obj and freezes its reads.
func (c *lagClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	return c.wrote(obj, c.Client.Create(ctx, obj, opts...))
}

// Update updates obj and freezes its reads.
func (c *lagClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.wrote(obj, c.Client.Update(ctx, obj, opts...))
}

// Patch patches obj and freezes its reads.
func (c *lagClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.wrote(obj, c.Client.Patch(ctx, obj, patch, opts...))
}
