package cli

import (
	"context"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// target is what the commands need of a reconciler; product.go and
// component.go adapt the two.
type target interface {
	// newObject returns an empty resource of the reconciled type.
	newObject() (client.Object, error)
	managerOptions() (cache.Options, client.Options)
	setupForPlanning(mgr manager.Manager) error
	setupOffline(scheme *runtime.Scheme, objects []client.Object) error
	permissions(scheme *runtime.Scheme, resolver rbac.Resolver) (rbac.Permissions, error)
	plan(ctx context.Context, obj client.Object) (report, error)
	render(ctx context.Context, obj client.Object) ([]rendered, []string, error)
	status(obj client.Object) statusView
}

// report is a plan in the commands' terms, for either reconciler.
type report struct {
	Resource   types.NamespacedName
	Exists     bool
	Notes      []string
	Changes    []change
	Retired    []retirement
	Conditions []metav1.Condition
	Events     []event
	Warnings   []string
	hasChanges bool
}

// change is one object's planned change and the scope it belongs to.
type change struct {
	Scope string
	apply.PlannedChange
}

// retirement is a removed role group's next step.
type retirement struct {
	Role, Group, Stage string
	Actions            []string
	Err                error
}

// event is an event a pass would record.
type event struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// rendered is one scope's objects.
type rendered struct {
	Scope   string
	Objects []client.Object
}

// statusView is a resource's status in the commands' terms.
type statusView struct {
	Summary    []string
	Conditions []metav1.Condition
	Scopes     []inventoryScope
}

// inventoryScope is one inventory of a resource's status.
type inventoryScope struct {
	Scope string
	Items []inventory.Item
}

// newOf allocates the value a pointer type T points to.
func newOf[T client.Object]() (T, error) {
	var zero T
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer {
		return zero, fmt.Errorf("cli: %s is not a pointer type", t)
	}
	obj, ok := reflect.New(t.Elem()).Interface().(T)
	if !ok {
		return zero, fmt.Errorf("cli: cannot allocate %s", t)
	}
	return obj, nil
}

// scopeName names a product scope: "cluster", the role, or role/group.
func scopeName(role, group string) string {
	switch {
	case role == "":
		return "cluster"
	case group == "":
		return role
	}
	return role + "/" + group
}
