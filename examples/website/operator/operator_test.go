package operator_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/examples/internal/manifest"
	websiteapi "github.com/opkit-dev/opkit/examples/website/api"
	"github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	"github.com/opkit-dev/opkit/examples/website/operator"
	"github.com/opkit-dev/opkit/examples/website/samples"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// env is the test control plane. Its API server enforces owner-reference
// permissions, as many clusters do, so that the RBAC test meets them.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true, CRDs: mustCRDs(), Scheme: operator.Scheme(),
	APIServerArgs: map[string][]string{"enable-admission-plugins": {"OwnerReferencesPermissionEnforcement"}}}}

func TestMain(m *testing.M) { env.Main(m) }

func mustCRDs() []*apiextensionsv1.CustomResourceDefinition {
	crds, err := websiteapi.CRDs()
	if err != nil {
		panic(err)
	}
	return crds
}

// The sample renders the chart (web server, content, admin Secret, Service)
// and the kustomization (network policy, budget with its patch), becomes
// Ready at revision 1, and an upgrade becomes revision 2 with the new
// image; deleting it removes everything it applied.
func TestSampleRendersUpgradesAndDeletes(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns)
	for _, f := range []string{"dependencies.yaml", "website.yaml"} {
		objs, err := manifest.Objects(samples.Files, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range objs {
			u.SetNamespace(ns)
			if err := cp.Client.Create(t.Context(), u); err != nil {
				t.Fatal(err)
			}
		}
	}
	key := client.ObjectKey{Namespace: ns, Name: "home"}
	waitState(t, cp.Client, key, 1)

	admin := &corev1.Secret{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "home-admin"}, admin); err != nil {
		t.Fatal(err)
	}
	if string(admin.Data["password"]) != "change-me" {
		t.Errorf("the rendered admin Secret holds %q, not the referenced password", admin.Data["password"])
	}
	for _, o := range []client.Object{&corev1.ConfigMap{}, &corev1.Service{}} {
		name := map[bool]string{true: "home-content", false: "home"}[isConfigMap(o)]
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, o); err != nil {
			t.Errorf("%T %s: %v", o, name, err)
		}
	}
	web := &appsv1.Deployment{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "home-web"}, web); err != nil {
		t.Fatal(err)
	}
	policy := &networkingv1.NetworkPolicy{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "home-web"}, policy); err != nil {
		t.Fatalf("the kustomization's NetworkPolicy: %v", err)
	}
	pdb := &policyv1.PodDisruptionBudget{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "home-web"}, pdb); err != nil {
		t.Fatal(err)
	}
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.String() != "50%" {
		t.Errorf("the budget patch did not apply for 3 replicas: minAvailable %v", pdb.Spec.MinAvailable)
	}
	// The kustomization labels its objects without narrowing their
	// selectors: both still select the chart's web server pods.
	for _, s := range []struct {
		what     string
		labels   map[string]string
		selector *metav1.LabelSelector
	}{
		{"NetworkPolicy", policy.Labels, &policy.Spec.PodSelector},
		{"PodDisruptionBudget", pdb.Labels, pdb.Spec.Selector},
	} {
		if got := s.labels["app.kubernetes.io/part-of"]; got != "website" {
			t.Errorf("the %s is labelled app.kubernetes.io/part-of=%q, want website", s.what, got)
		}
		sel, err := metav1.LabelSelectorAsSelector(s.selector)
		if err != nil {
			t.Fatalf("the %s's selector: %v", s.what, err)
		}
		if !sel.Matches(labels.Set(web.Spec.Template.Labels)) {
			t.Errorf("the %s selects %s, not the web server's pods %v", s.what, sel, web.Spec.Template.Labels)
		}
	}

	if err := update(t, cp.Client, key, func(w *v1alpha1.Website) { w.Spec.Version = "1.28" }); err != nil {
		t.Fatal(err)
	}
	waitState(t, cp.Client, key, 2)
	dep := &appsv1.Deployment{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "home-web"}, dep); err != nil {
		t.Fatal(err)
	}
	if img := dep.Spec.Template.Spec.Containers[0].Image; img != "nginxinc/nginx-unprivileged:1.28" {
		t.Errorf("after the upgrade the Deployment runs %s", img)
	}

	w := &v1alpha1.Website{}
	if err := cp.Client.Get(t.Context(), key, w); err != nil {
		t.Fatal(err)
	}
	if err := cp.Client.Delete(t.Context(), w); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := cp.Client.Get(ctx, key, &v1alpha1.Website{})
		left := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "home-web"}, &appsv1.Deployment{})
		return "website or Deployment left", apierrors.IsNotFound(err) && apierrors.IsNotFound(left), nil
	}, time.Minute); err != nil {
		t.Fatalf("deleting the Website: %v", err)
	}
}

func isConfigMap(o client.Object) bool { _, ok := o.(*corev1.ConfigMap); return ok }

func startOperator(t *testing.T, cp *controlplane.ControlPlane, ns string) {
	t.Helper()
	r, err := operator.New(operator.Options{Namespaces: []string{ns}})
	if err != nil {
		t.Fatal(err)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(cp.RESTConfig(), ctrl.Options{
		Scheme: operator.Scheme(), Cache: cacheOpts, Client: clientOpts,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Logger:     testkit.Logger(t),
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetupWithManager(t.Context(), mgr); err != nil {
		t.Fatal(err)
	}
	testkit.RunManager(t, mgr)
}

func waitState(t *testing.T, c client.Client, key client.ObjectKey, revision int64) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (componentv1alpha1.Status, bool, error) {
		w := &v1alpha1.Website{}
		if err := c.Get(ctx, key, w); err != nil {
			return componentv1alpha1.Status{}, false, err
		}
		st := w.Status.Status
		return st, st.State == componentv1alpha1.StateReady && st.Revision == revision && st.ObservedGeneration == w.Generation, nil
	}, 2*time.Minute); err != nil {
		t.Fatalf("waiting for Ready at revision %d: %v", revision, err)
	}
}

func update(t *testing.T, c client.Client, key client.ObjectKey, change func(*v1alpha1.Website)) error {
	t.Helper()
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		w := &v1alpha1.Website{}
		if err := c.Get(ctx, key, w); err != nil {
			return false, false, err
		}
		change(w)
		err := c.Update(ctx, w)
		if apierrors.IsConflict(err) {
			return false, false, nil
		}
		return err == nil, err == nil, err
	}, 30*time.Second)
	return err
}
