package crash_test

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/opkit-dev/opkit/testkit"
)

// children is how many ConfigMaps the test operator creates per parent.
const children = 4

// doneAnnotation marks a parent whose children all exist.
const doneAnnotation = "crash.opkit.dev/done"

// childOperator returns an operator that, for the ConfigMap "parent" in
// ns, creates the ConfigMaps child-0 … child-3 one at a time (each create
// waits for the previous one's answer), then annotates the parent: five
// writes in a fixed order.
func childOperator(t *testing.T, ns string) func(ctx context.Context, cfg *rest.Config) error {
	return func(ctx context.Context, cfg *rest.Config) error {
		mgr, err := ctrl.NewManager(cfg, ctrl.Options{
			Metrics:    metricsserver.Options{BindAddress: "0"},
			Logger:     testkit.Logger(t),
			Controller: config.Controller{SkipNameValidation: ptr.To(true)},
		})
		if err != nil {
			return err
		}
		c := mgr.GetAPIReader()
		w := mgr.GetClient()
		err = ctrl.NewControllerManagedBy(mgr).
			For(&corev1.ConfigMap{}, builder.WithPredicates(predicate.NewPredicateFuncs(func(o client.Object) bool {
				return o.GetNamespace() == ns && o.GetName() == "parent"
			}))).
			Complete(reconcileFunc(func(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
				for i := range children {
					child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("child-%d", i)}}
					err := c.Get(ctx, client.ObjectKeyFromObject(child), &corev1.ConfigMap{})
					if apierrors.IsNotFound(err) {
						err = w.Create(ctx, child)
					}
					if err != nil {
						return ctrl.Result{}, err
					}
				}
				parent := &corev1.ConfigMap{}
				if err := c.Get(ctx, req.NamespacedName, parent); err != nil {
					return ctrl.Result{}, client.IgnoreNotFound(err)
				}
				if parent.Annotations[doneAnnotation] == "true" {
					return ctrl.Result{}, nil
				}
				metav1.SetMetaDataAnnotation(&parent.ObjectMeta, doneAnnotation, "true")
				return ctrl.Result{}, w.Update(ctx, parent)
			}))
		if err != nil {
			return err
		}
		return mgr.Start(ctx)
	}
}

type reconcileFunc func(context.Context, ctrl.Request) (ctrl.Result, error)

func (f reconcileFunc) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return f(ctx, req)
}

// childNames lists the children that exist.
func childNames(ctx context.Context, c client.Client, ns string) ([]string, error) {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	var names []string
	for _, cm := range list.Items {
		if cm.Name != "parent" && cm.Name != "kube-root-ca.crt" {
			names = append(names, cm.Name)
		}
	}
	return names, nil
}

// converged reports the parent done with every child present.
func converged(c client.Client, ns string) testkit.Condition[string] {
	return func(ctx context.Context) (string, bool, error) {
		names, err := childNames(ctx, c, ns)
		if err != nil {
			return "", false, err
		}
		parent := &corev1.ConfigMap{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "parent"}, parent); err != nil {
			return "", false, err
		}
		done := parent.Annotations[doneAnnotation] == "true"
		return fmt.Sprintf("children %v, done %t", names, done), done && len(names) == children, nil
	}
}
