package webhooks

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// ProbePath is where the server answers the probe webhooks Install adds.
const ProbePath = "/opkit-testkit-probe"

// ProbeLabel marks the dry-run ConfigMaps Install probes with; its value
// is the configuration's name.
const ProbeLabel = "testkit.opkit.dev/webhook-probe"

// Server is a controller-runtime webhook server for one test, with a
// serving certificate for its local address signed by a CA of its own.
// Pass it as a manager's WebhookServer, or Serve it.
type Server struct {
	webhook.Server
	// CABundle is the PEM CA the API server checks the certificate with.
	CABundle []byte
	// Host and Port are where the server listens.
	Host string
	Port int
}

// A Server is a manager's webhook server.
var _ webhook.Server = (*Server)(nil)

// New prepares a server on a free local port with a fresh serving
// certificate, and registers the probe handler. The certificate's files
// are removed at the test's cleanup. The server is not started.
func New(t testing.TB) *Server {
	t.Helper()
	opts := &envtest.WebhookInstallOptions{}
	if err := opts.PrepWithoutInstalling(); err != nil {
		t.Fatalf("webhooks: preparing the serving certificate: %v", err)
	}
	t.Cleanup(func() { _ = opts.Cleanup() })
	srv := webhook.NewServer(webhook.Options{Host: opts.LocalServingHost, Port: opts.LocalServingPort, CertDir: opts.LocalServingCertDir})
	srv.Register(ProbePath, &admission.Webhook{Handler: admission.HandlerFunc(probe)})
	return &Server{Server: srv, CABundle: opts.LocalServingCAData, Host: opts.LocalServingHost, Port: opts.LocalServingPort}
}

// Serve starts the server until the test ends, for a test without a
// manager (a manager starts its WebhookServer itself).
func (s *Server) Serve(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Server.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("webhooks: server: %v", err)
		}
	})
}

// probe denies every request it gets, naming the configuration, so a
// dry-run create shows the API server called it.
func probe(_ context.Context, req admission.Request) admission.Response {
	return admission.Denied(probeMessage(req.Namespace))
}

func probeMessage(namespace string) string {
	return "opkit testkit webhook probe in " + namespace
}
