package webhooks

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
)

// InstallTimeout bounds the wait for the API server to call the probes.
const InstallTimeout = time.Minute

// Install creates copies of the configurations, each webhook pointed at s
// and restricted to namespace, and waits until the API server calls s for
// each configuration. The copies are named "<name>-<namespace>" and
// deleted at the test's cleanup; the arguments are not changed. Start the
// manager holding the server (or Serve it) first.
func (s *Server) Install(t testing.TB, c client.Client, namespace string,
	mutating []*admissionregistrationv1.MutatingWebhookConfiguration,
	validating []*admissionregistrationv1.ValidatingWebhookConfiguration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), InstallTimeout)
	defer cancel()
	var names []string
	for _, in := range mutating {
		cfg := in.DeepCopy()
		cfg.ObjectMeta = metav1.ObjectMeta{Name: cfg.Name + "-" + namespace}
		for i := range cfg.Webhooks {
			w := &cfg.Webhooks[i]
			s.point(&w.ClientConfig)
			w.NamespaceSelector = inNamespace(namespace)
		}
		cfg.Webhooks = append(cfg.Webhooks, admissionregistrationv1.MutatingWebhook{
			Name: "probe.testkit.opkit.dev", ClientConfig: s.clientConfig(ProbePath),
			Rules: probeRules(), NamespaceSelector: inNamespace(namespace), ObjectSelector: probeSelector(cfg.Name),
			SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
			FailurePolicy: ptr.To(admissionregistrationv1.Fail),
		})
		create(t, ctx, c, cfg)
		names = append(names, cfg.Name)
	}
	for _, in := range validating {
		cfg := in.DeepCopy()
		cfg.ObjectMeta = metav1.ObjectMeta{Name: cfg.Name + "-" + namespace}
		for i := range cfg.Webhooks {
			w := &cfg.Webhooks[i]
			s.point(&w.ClientConfig)
			w.NamespaceSelector = inNamespace(namespace)
		}
		cfg.Webhooks = append(cfg.Webhooks, admissionregistrationv1.ValidatingWebhook{
			Name: "probe.testkit.opkit.dev", ClientConfig: s.clientConfig(ProbePath),
			Rules: probeRules(), NamespaceSelector: inNamespace(namespace), ObjectSelector: probeSelector(cfg.Name),
			SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
			FailurePolicy: ptr.To(admissionregistrationv1.Fail),
		})
		create(t, ctx, c, cfg)
		names = append(names, cfg.Name)
	}
	for _, name := range names {
		s.awaitProbe(t, ctx, c, namespace, name)
	}
}

// point makes cc call s at the path it names (its Service's path or its
// URL's), with s's CA.
func (s *Server) point(cc *admissionregistrationv1.WebhookClientConfig) {
	path := "/"
	switch {
	case cc.Service != nil && cc.Service.Path != nil:
		path = *cc.Service.Path
	case cc.URL != nil:
		if _, rest, ok := strings.Cut(strings.TrimPrefix(*cc.URL, "https://"), "/"); ok {
			path = "/" + rest
		}
	}
	*cc = s.clientConfig(path)
}

func (s *Server) clientConfig(path string) admissionregistrationv1.WebhookClientConfig {
	url := "https://" + net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) + path
	return admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: append([]byte(nil), s.CABundle...)}
}

func inNamespace(ns string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
		Key: corev1.LabelMetadataName, Operator: metav1.LabelSelectorOpIn, Values: []string{ns}}}}
}

func probeSelector(config string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{ProbeLabel: config}}
}

func probeRules() []admissionregistrationv1.RuleWithOperations {
	return []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
	}}
}

// create creates cfg and deletes it at cleanup.
func create(t testing.TB, ctx context.Context, c client.Client, cfg client.Object) {
	t.Helper()
	if err := c.Create(ctx, cfg); err != nil {
		t.Fatalf("webhooks: creating %T %s: %v", cfg, cfg.GetName(), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := c.Delete(ctx, cfg); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("webhooks: deleting %T %s: %v", cfg, cfg.GetName(), err)
		}
	})
}

// awaitProbe waits until a dry-run ConfigMap marked for the configuration
// is denied by the probe: the API server has loaded the configuration and
// reaches the server through its certificate.
func (s *Server) awaitProbe(t testing.TB, ctx context.Context, c client.Client, namespace, config string) {
	t.Helper()
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "probe-",
			Labels: map[string]string{ProbeLabel: config}}}
		err := c.Create(ctx, cm, client.DryRunAll)
		if err == nil {
			return "admitted without the probe", false, nil
		}
		return err.Error(), strings.Contains(err.Error(), probeMessage(namespace)), nil
	}, InstallTimeout)
	if err != nil {
		t.Fatalf("webhooks: the API server does not call the server for %s: %v", config, fmt.Sprint(err))
	}
}
