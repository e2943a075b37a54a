package component_test

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// NoteSpec is the spec of a small component type: a placement block and
// one parameter. (A real type lives in its API package, with generated
// deep copies and a CRD.)
type NoteSpec struct {
	componentv1alpha1.PlacementSpec `json:",inline"`
	Text                            string `json:"text"`
}

// Note is the component.
type Note struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              NoteSpec `json:"spec"`
	Status            struct {
		componentv1alpha1.Status `json:",inline"`
	} `json:"status"`
}

func (n *Note) GetSpec() any                         { return &n.Spec }
func (n *Note) GetStatus() *componentv1alpha1.Status { return &n.Status.Status }

func (n *Note) DeepCopyObject() runtime.Object {
	c := *n
	n.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	n.Status.Status.DeepCopyInto(&c.Status.Status)
	return &c
}

// A reconciler is built from a name, a generator and options; what is
// wrong with them is said before anything runs, naming the option.
func ExampleNew() {
	notes := generators.GeneratorFunc(func(ctx context.Context, namespace, name string, params map[string]any) ([]client.Object, error) {
		return nil, nil // render the objects from params here
	})

	_, err := component.New[*Note]("notes.example.com", notes, component.Options{DeletePolicy: "shred"})
	var fe failure.Fielder
	fmt.Println(errors.Is(err, failure.ErrInvalid), errors.As(err, &fe) && fe.FieldPath() == "component.Options.DeletePolicy")
	fmt.Println(err)

	r, err := component.New[*Note]("notes.example.com", notes, component.Options{})
	fmt.Println(r.Name(), err)
	// Then, in main: r.ManagerOptions() for the manager, r.SetupWithManager(ctx, mgr).

	// Output:
	// true true
	// component.Options.DeletePolicy: unknown policy "shred"; one of delete, orphan, orphan-on-apply, orphan-on-delete
	// notes.example.com <nil>
}

// What an operator running the reconciler needs from RBAC follows from its
// options and component type alone; rbac.Manifests writes it as roles.
func ExampleReconciler_Permissions() {
	notes := generators.GeneratorFunc(func(context.Context, string, string, map[string]any) ([]client.Object, error) {
		return nil, nil
	})
	r, err := component.New[*Note]("notes.example.com", notes, component.Options{
		Kinds:       []schema.GroupVersionKind{corev1.SchemeGroupVersion.WithKind("ConfigMap")},
		StrictKinds: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	scheme := runtime.NewScheme()
	scheme.AddKnownTypeWithName(schema.GroupVersionKind{Group: "notes.example.com", Version: "v1", Kind: "Note"}, &Note{})
	p, err := r.Permissions(scheme, rbac.Resolver{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rule := range p.Namespaced {
		fmt.Println(rule.APIGroups, rule.Resources, rule.Verbs)
	}
	for _, rule := range p.Cluster {
		fmt.Println("cluster:", rule.APIGroups, rule.Resources, rule.Verbs)
	}
	// Output:
	// [] [configmaps] [create delete get list update watch]
	// [] [secrets] [create get list update watch]
	// [events.k8s.io] [events] [create patch]
	// [notes.example.com] [notes] [get list patch watch]
	// [notes.example.com] [notes/finalizers notes/status] [update]
	// cluster: [] [namespaces] [create]
}
