package offline

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/recorder"
)

// Cluster is a cluster held in memory.
type Cluster struct {
	// Client reads and writes the objects in memory.
	Client client.Client
	// Recorder drops every event.
	Recorder recorder.EventRecorder
}

// foldStringData moves a Secret's stringData into its data, as the API
// server does on a write: readers find the values under data alone.
func foldStringData(s *corev1.Secret) {
	if len(s.StringData) == 0 {
		return
	}
	if s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
}

// New returns a cluster holding objects, which scheme must know. Two
// objects of one kind, namespace and name are refused, naming both.
func New(scheme *runtime.Scheme, objects []client.Object) (Cluster, error) {
	seen := map[string]int{}
	for i, o := range objects {
		gvk, err := apiutil.GVKForObject(o, scheme)
		if err != nil {
			return Cluster{}, fmt.Errorf("object %d (%s): %w", i+1, client.ObjectKeyFromObject(o), err)
		}
		key := gvk.GroupKind().String() + " " + client.ObjectKeyFromObject(o).String()
		if j, ok := seen[key]; ok {
			return Cluster{}, fmt.Errorf("objects %d and %d are both %s", j+1, i+1, key)
		}
		seen[key] = i
	}
	c := fake.NewClientBuilder().WithScheme(scheme).Build()
	for i, o := range objects {
		cp, ok := o.DeepCopyObject().(client.Object)
		if !ok {
			return Cluster{}, fmt.Errorf("%T does not copy to itself", o)
		}
		// An object from a file of exported objects carries the
		// version it had; in memory it starts afresh.
		cp.SetResourceVersion("")
		if s, ok := cp.(*corev1.Secret); ok {
			foldStringData(s)
		}
		// Created one by one rather than given to the builder, which
		// panics on an object it cannot hold.
		if err := c.Create(context.Background(), cp); err != nil {
			return Cluster{}, fmt.Errorf("object %d (%s): %w", i+1, client.ObjectKeyFromObject(o), err)
		}
	}
	// A recorder without a channel drops what it is given.
	return Cluster{Client: c, Recorder: &events.FakeRecorder{}}, nil
}
