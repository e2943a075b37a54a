package webhooks_test

import (
	"context"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/webhooks"
)

var env = &testkit.Env{}

func TestMain(m *testing.M) { env.Main(m) }

// denyLabelled is a validating configuration for ConfigMaps, served at
// /deny, in the shape an operator's manifests state it (a Service
// reference).
func denyLabelled() *admissionregistrationv1.ValidatingWebhookConfiguration {
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "deny-labelled"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: "deny.example.com",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{
				Namespace: "system", Name: "webhooks", Path: ptr.To("/deny")}},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
			}},
			ObjectSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"deny": "yes"}},
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
}

func TestInstalledWebhooksAreCalledInTheirNamespaceOnly(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	other := testkit.Namespace(t, cp.Client)
	cm := func(ns, name string, deny bool) *corev1.ConfigMap {
		c := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		if deny {
			c.Labels = map[string]string{"deny": "yes"}
		}
		return c
	}
	cfg := denyLabelled()
	var name string
	t.Run("installed", func(t *testing.T) {
		srv := webhooks.New(t)
		srv.Register("/deny", &admission.Webhook{Handler: admission.HandlerFunc(func(context.Context, admission.Request) admission.Response {
			return admission.Denied("labelled deny")
		})})
		srv.Serve(t)
		srv.Install(t, cp.Client, ns, nil, []*admissionregistrationv1.ValidatingWebhookConfiguration{cfg})
		name = "deny-labelled-" + ns

		err := cp.Client.Create(t.Context(), cm(ns, "denied", true))
		if err == nil || !strings.Contains(err.Error(), "labelled deny") {
			t.Errorf("a labelled ConfigMap in the namespace: want the webhook's denial, got %v", err)
		}
		if err := cp.Client.Create(t.Context(), cm(ns, "plain", false)); err != nil {
			t.Errorf("an unlabelled ConfigMap: %v", err)
		}
		if err := cp.Client.Create(t.Context(), cm(other, "elsewhere", true)); err != nil {
			t.Errorf("a labelled ConfigMap in another namespace reached the webhook: %v", err)
		}
	})
	if cfg.Name != "deny-labelled" || cfg.Webhooks[0].ClientConfig.Service == nil {
		t.Errorf("Install changed its argument: %+v", cfg)
	}
	got := &admissionregistrationv1.ValidatingWebhookConfiguration{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Name: name}, got); !apierrors.IsNotFound(err) {
		t.Errorf("the configuration outlived its test: %v", err)
	}
	// The API server forgets a deleted configuration shortly after.
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (error, bool, error) {
		err := cp.Client.Create(ctx, cm(ns, "after", true), client.DryRunAll)
		return err, err == nil, nil
	}, time.Minute); err != nil {
		t.Errorf("a labelled ConfigMap after the test's cleanup: %v", err)
	}
}
