package servertest_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/listener"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/s3"
	"github.com/opkit-dev/opkit/secretvolume"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/webhooks"
	"github.com/opkit-dev/opkit/webhook"
	lakehousev1alpha1 "github.com/opkit-dev/opkit/webhook/servertest/lakehouse/v1alpha1"
)

type lakehouse = lakehousev1alpha1.Lakehouse

// The Lakehouse product: metastore servers that keep tables in the
// warehouse bucket, and gateways clients reach, both serving TLS.
func catalog() reconciler.Catalog {
	return reconciler.Catalog{
		"server": {
			ContainerPorts: []corev1.ContainerPort{{Name: "thrift", ContainerPort: 9083}},
			ServicePorts:   []corev1.ServicePort{{Name: "thrift", Port: 9083, TargetPort: intstr.FromString("thrift")}},
			Command:        []string{"bin/start-metastore"},
		},
		"gateway": {
			ContainerPorts: []corev1.ContainerPort{{Name: "https", ContainerPort: 8443}},
			ServicePorts:   []corev1.ServicePort{{Name: "https", Port: 8443, TargetPort: intstr.FromString("https")}},
			Command:        []string{"bin/start-gateway"},
			Optional:       true,
		},
	}
}

// handler builds a role group: the default objects, the role's client
// Service typed by its listener class, and the StatefulSet with the TLS,
// S3 and listener volumes. It reads the bucket through reader.
func handler() reconciler.RoleGroupHandler[*lakehouse] {
	return reconciler.RoleGroupHandlerFunc[*lakehouse](func(ctx context.Context, cr *lakehouse, bc *reconciler.BuildContext) (*reconciler.RoleGroupObjects, error) {
		secrets := secretvolume.New(secretvolume.Options{})
		files := map[string]map[string]string{}
		decl := bc.Declaration
		if cr.Spec.TLS != nil {
			secrets.Add(secretvolume.TLS("tls", cr.Spec.TLS.ServerSecretClass,
				&secretclassv1alpha1.Scope{Pod: true, Services: []string{bc.ResourceName()}}).
				WithPKCS12Password("changeit").
				From(failure.AuthorUser, "spec.tls.serverSecretClass"))
		}
		if bc.Role == "server" && cr.Spec.Warehouse != nil {
			bucket, err := s3.Resolve(ctx, bc.Client, cr.Namespace, *cr.Spec.Warehouse, "spec.warehouse", s3.ResolveOptions{NotFoundRetry: 2 * time.Second})
			if err != nil {
				return nil, err
			}
			w := bucket.Wire(secrets, s3.WireOptions{})
			files["core-site.xml"] = w.HadoopProperties
			decl.Command = []string{"/bin/sh", "-c", strings.Join(append(w.Exports, "exec "+strings.Join(bc.Declaration.Command, " ")), " && ")}
		}
		class := listener.ClassOf(listenerv1alpha1.ClusterInternal, classOf(cr, bc.Role))
		listeners := listener.NewSet(listener.Options{})
		if class != listenerv1alpha1.ClusterInternal {
			listeners.Add(listener.Volume{Name: "listener", Class: class, Field: "spec.listeners." + bc.Role})
		}
		withDecl := *bc
		withDecl.Declaration = decl
		objs := &reconciler.RoleGroupObjects{}
		var err error
		if objs.ConfigMap, err = reconciler.BuildConfigMap(bc, files, nil); err != nil {
			return nil, err
		}
		if objs.HeadlessService, err = builders.NewHeadlessService(bc.Scope).WithPorts(decl.ServicePorts...).Build(); err != nil {
			return nil, err
		}
		if objs.Service, err = builders.NewService(bc.Scope).WithType(listener.ServiceType(class)).WithPorts(decl.ServicePorts...).Build(); err != nil {
			return nil, err
		}
		if objs.StatefulSet, err = reconciler.BuildStatefulSet(&withDecl).WithInjectors(secrets, listeners).Build(); err != nil {
			return nil, err
		}
		return objs, nil
	})
}

func classOf(cr *lakehouse, role string) *listenerv1alpha1.Class {
	if c, ok := cr.Spec.Listeners[role]; ok {
		return &c
	}
	return nil
}

// productConfig is the product reconciler's configuration.
func productConfig() reconciler.Config[*lakehouse] {
	return reconciler.Config[*lakehouse]{
		Name:             "lakehouse.test.opkit.dev",
		For:              &lakehouse{},
		Roles:            reconciler.StaticRoles[*lakehouse](catalog()),
		Handler:          handler(),
		Image:            imageresolve.Options{ProductName: "lakehouse", Defaults: commonsv1alpha1.ImageSpec{Repo: "registry.example/opkit", ProductVersion: "4.0.1"}},
		ProgressInterval: 2 * time.Second,
	}
}

// webhookOptions admits Lakehouses with the reconciler's checks, the
// product's check of its listener map and its defaulting of the owner.
func webhookOptions(cfg reconciler.Config[*lakehouse]) webhook.Options[*lakehouse] {
	return webhook.Options[*lakehouse]{
		Reconciler: cfg,
		Validate: func(_ context.Context, cr *lakehouse) field.ErrorList {
			var errs field.ErrorList
			for role := range maps.Keys(cr.Spec.Listeners) {
				if _, ok := catalog()[role]; !ok {
					errs = append(errs, field.NotSupported(field.NewPath("spec", "listeners").Key(role), role, []string{"gateway", "server"}))
				}
			}
			return errs
		},
		Default: func(_ context.Context, cr *lakehouse) error {
			if cr.Spec.Owner == "" {
				cr.Spec.Owner = "data-platform"
			}
			// A product tempted to pin today's image: the webhook undoes it.
			cr.Spec.Image = &commonsv1alpha1.ImageSpec{ProductVersion: "4.0.1"}
			return nil
		},
	}
}

// operator is a running manager with the product reconciler and its
// webhooks, installed on the API server for ns.
type operator struct {
	client client.Client
}

// startOperator runs the product in ns: a manager restricted to ns whose
// webhook server testkit serves, the reconciler unless admissionOnly, and
// the webhook configurations from webhook.Configurations.
func startOperator(t *testing.T, cp *controlplane.ControlPlane, ns string, admissionOnly bool) *operator {
	t.Helper()
	srv := webhooks.New(t)
	cfg := productConfig()
	cfg.Namespaces = []string{ns}
	r, err := reconciler.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(cp.RESTConfig(), ctrl.Options{
		Scheme:        testScheme(),
		Cache:         cacheOpts,
		Client:        clientOpts,
		Metrics:       metricsserver.Options{BindAddress: "0"},
		Logger:        testkit.Logger(t),
		WebhookServer: srv,
		Controller:    config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	wh, err := webhook.New(webhookOptions(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	if !admissionOnly {
		if err := r.SetupWithManager(t.Context(), mgr); err != nil {
			t.Fatal(err)
		}
	}
	testkit.RunManager(t, mgr)
	mutating, validating := webhook.Configurations(webhook.ConfigurationOptions{
		Kind:     lakehousev1alpha1.GroupVersion.WithKind("Lakehouse"),
		Resource: "lakehouses",
		Service:  admissionregistrationv1.ServiceReference{Namespace: "opkit-system", Name: "lakehouse-operator"},
	})
	srv.Install(t, cp.Client, ns,
		[]*admissionregistrationv1.MutatingWebhookConfiguration{mutating},
		[]*admissionregistrationv1.ValidatingWebhookConfiguration{validating})
	return &operator{client: mgr.GetClient()}
}

// newLakehouse returns a Lakehouse in ns with one group per role.
func newLakehouse(ns, name string, roles ...string) *lakehouse {
	l := &lakehouse{}
	l.Namespace, l.Name = ns, name
	l.Spec.Roles = map[string]commonsv1alpha1.RoleSpec{}
	for _, r := range roles {
		l.Spec.Roles[r] = commonsv1alpha1.RoleSpec{RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {Replicas: ptr.To[int32](1)}}}
	}
	return l
}
