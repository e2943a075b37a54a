package servertest_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/testkit"
)

// operator is a generated project's binary running as a process.
type operator struct {
	// probes and metrics are the local addresses its health probes and
	// metrics endpoint listen on.
	probes, metrics string
	// log is the file its standard output and error go to.
	log string
}

// startOperator runs bin with args (its Deployment's), its probes and
// metrics moved to free local ports, against the API server kubeconfig
// names, its lease in namespace ns. It returns once the operator is
// ready, and stops it (SIGTERM) at the end of the test.
func startOperator(t *testing.T, bin string, args []string, kubeconfig, ns string) *operator {
	t.Helper()
	op := &operator{probes: freeAddr(t), metrics: freeAddr(t), log: filepath.Join(t.TempDir(), "operator.log")}
	var run []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "--health-probe-bind-address="):
			a = "--health-probe-bind-address=" + op.probes
		case strings.HasPrefix(a, "--metrics-bind-address="):
			a = "--metrics-bind-address=" + op.metrics
		}
		run = append(run, a)
	}
	run = append(run, "--kubeconfig="+kubeconfig, "--leader-election-namespace="+ns)
	logFile, err := os.Create(op.log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, run...) //nolint:noctx // the cleanup stops it with SIGTERM, which a cancelled context would not send
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = dieWithTest()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			exited <- err
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
		}
		if err := <-exited; err != nil {
			t.Errorf("the operator did not stop cleanly on SIGTERM: %v\n%s", err, tailFile(op.log, 20))
		}
		_ = logFile.Close()
		if t.Failed() {
			t.Logf("operator log (%s):\n%s", strings.Join(run, " "), tailFile(op.log, 60))
		}
	})
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		select {
		case err := <-exited:
			exited <- err
			return "", false, fmt.Errorf("the operator exited: %w", err)
		default:
		}
		code, _, err := get(ctx, "http://"+op.probes+"/readyz", "")
		return strconv.Itoa(code), code == http.StatusOK, err
	}, time.Minute); err != nil {
		t.Fatalf("the operator did not become ready: %v\n%s", err, tailFile(op.log, 40))
	}
	return op
}

// freeAddr returns a local address with a port free at the time.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}

// get sends a GET to url with a bearer token (none when empty) and
// returns the status code and the body. An HTTPS server is trusted
// blindly: the operator's metrics certificate is self-signed.
func get(ctx context.Context, url, token string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, "", err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // a self-signed test certificate
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// tailFile returns the last n lines of the file at path.
func tailFile(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return tail(string(b), n)
}
