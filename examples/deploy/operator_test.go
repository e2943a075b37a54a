package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
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

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// operator is an example operator's binary running as a process.
type operator struct {
	// probes and metrics are the local addresses its health probes and
	// metrics endpoint listen on.
	probes, metrics string
	// log is the file its standard output and error go to.
	log string
}

// buildOperator builds the example's command into a temporary directory.
func buildOperator(t *testing.T, ex example) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), ex.name+"-operator")
	out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../"+ex.name).CombinedOutput()
	if err != nil {
		t.Fatalf("building the %s operator: %v\n%s", ex.name, err, out)
	}
	return bin
}

// startOperator runs bin with args (the Deployment's), its probes and
// metrics moved to free local ports, against the cluster kubeconfig
// names, its lease in namespace ns; it returns once the operator is
// ready, and stops it at the end of the test.
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
	cmd := exec.Command(bin, run...) //nolint:noctx // the cleanup stops it with SIGTERM first, which a cancelled context would skip
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
			t.Logf("the operator stopped: %v", err)
		}
		_ = logFile.Close()
		if t.Failed() {
			t.Logf("operator log (%s):\n%s", strings.Join(run, " "), tail(op.log, 40))
		}
	})
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		select {
		case err := <-exited:
			exited <- err
			return "", false, fmt.Errorf("the operator exited: %w", err)
		default:
		}
		code, err := get(ctx, "http://"+op.probes+"/readyz")
		return strconv.Itoa(code), code == http.StatusOK, err
	}, time.Minute); err != nil {
		t.Fatalf("the operator did not become ready: %v\n%s", err, tail(op.log, 40))
	}
	return op
}

// refusals returns the lines of the operator's log that tell of a request
// the API server refused for want of rights.
func (op *operator) refusals(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(op.log)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var out []string
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		// A namespace being deleted refuses new objects and events as
		// forbidden too; that is not a want of rights.
		if line := bytes.ToLower(s.Bytes()); bytes.Contains(line, []byte("forbidden")) && !bytes.Contains(line, []byte("because it is being terminated")) {
			out = append(out, s.Text())
		}
	}
	return out
}

// kubeconfigFor writes a kubeconfig for cp's API server that
// authenticates with token.
func kubeconfigFor(t *testing.T, cp *controlplane.ControlPlane, token string) string {
	t.Helper()
	cfg := cp.RESTConfig()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["operator"] = &clientcmdapi.AuthInfo{Token: token}
	kc.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "operator"}
	kc.CurrentContext = "test"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	return path
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

func get(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// tail returns the last n lines of the file at path.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
