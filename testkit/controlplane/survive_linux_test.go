package controlplane_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// holderEnv makes the test binary, started again by
// TestNoProcessOutlivesItsTestBinary, start a control plane, report it in
// the file the variable names and wait to be killed.
const holderEnv = "OPKIT_TEST_CONTROLPLANE_HOLDER"

// The processes of a control plane die with the test binary that started
// them, even when it is killed with SIGKILL in the middle of a run: no
// etcd, kube-apiserver, controller manager, scheduler or kwok of it is
// left, and the ports they listened on can be bound again.
func TestNoProcessOutlivesItsTestBinary(t *testing.T) {
	if err := (controlplane.Options{Controllers: true}).CheckAssets(); err != nil {
		if controlplane.IsAssetsError(err) && !testkit.InCI() {
			t.Skipf("no control plane: %v", err)
		}
		t.Fatalf("no control plane: %v", err)
	}
	dir := t.TempDir()
	report, output := filepath.Join(dir, "holder"), filepath.Join(dir, "holder.log")
	out, err := os.Create(output)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = out.Close() }()
	holder := exec.Command(os.Args[0], "-test.run=^TestControlPlaneHolder$", "-test.timeout=5m") //nolint:noctx // the holder is killed by hand: the test is what happens to its children then
	holder.Env = append(os.Environ(), holderEnv+"="+report)
	holder.Stdout, holder.Stderr = out, out
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })

	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (string, bool, error) {
		b, err := os.ReadFile(report)
		log, _ := os.ReadFile(output)
		return string(log), err == nil && bytes.HasSuffix(b, []byte("\n")), nil
	}, 3*time.Minute); err != nil {
		t.Fatalf("the holder did not start a control plane: %v", err)
	}
	children := childrenOf(holder.Process.Pid)
	names := map[string]bool{}
	var ports []int
	for _, c := range children {
		names[c.name] = true
		ports = append(ports, c.ports...)
	}
	for _, want := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"} {
		if !names[want] {
			t.Fatalf("the holder runs no %s; its children: %v", want, children)
		}
	}
	if len(ports) < 2 {
		t.Fatalf("found no listening addresses in the children's command lines: %v", children)
	}

	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = holder.Wait()

	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		var alive []string
		for _, c := range children {
			if c.name != "sh" && processAlive(c.pid) {
				alive = append(alive, fmt.Sprintf("%s (pid %d)", c.name, c.pid))
			}
		}
		for _, port := range ports {
			l, err := (&net.ListenConfig{}).Listen(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
			if err != nil {
				alive = append(alive, fmt.Sprintf("port %d: %v", port, err))
				continue
			}
			_ = l.Close()
		}
		return strings.Join(alive, ", "), len(alive) == 0, nil
	}, time.Minute); err != nil {
		t.Fatalf("the control plane outlived its test binary: %v", err)
	}
}

// TestControlPlaneHolder is the child of TestNoProcessOutlivesItsTestBinary;
// run alone it does nothing.
func TestControlPlaneHolder(t *testing.T) {
	report := os.Getenv(holderEnv)
	if report == "" {
		t.Skip("run by TestNoProcessOutlivesItsTestBinary")
	}
	cp, err := controlplane.Start(t.Context(), controlplane.Options{Controllers: true, Nodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(report, []byte(cp.Config.Host+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	<-t.Context().Done() // killed long before the test's deadline
}

// child is a process started by the holder.
type child struct {
	pid   int
	name  string
	ports []int
}

func (c child) String() string { return fmt.Sprintf("%s (pid %d)", c.name, c.pid) }

var listenURL = regexp.MustCompile(`--(?:listen-client-urls|listen-peer-urls|secure-port|advertise-client-urls)=(\S+)`)

// childrenOf lists the processes whose parent is pid, with the ports their
// command lines say they listen on.
func childrenOf(pid int) []child {
	entries, _ := os.ReadDir("/proc")
	var out []child
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil || parentOf(stat) != pid {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		c := child{pid: p, name: filepath.Base(args[0])}
		for _, m := range listenURL.FindAllStringSubmatch(strings.Join(args, " "), -1) {
			for _, v := range strings.Split(m[1], ",") {
				if port, err := strconv.Atoi(v); err == nil {
					c.ports = append(c.ports, port)
				} else if u, err := url.Parse(v); err == nil {
					if port, err := strconv.Atoi(u.Port()); err == nil {
						c.ports = append(c.ports, port)
					}
				}
			}
		}
		slices.Sort(c.ports)
		c.ports = slices.Compact(c.ports)
		out = append(out, c)
	}
	return out
}

// parentOf reads the parent pid from /proc/<pid>/stat ("pid (comm) state
// ppid ..."; comm may hold spaces, so read after its closing parenthesis).
func parentOf(stat []byte) int {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// processAlive reports whether pid runs; a zombie waiting to be reaped
// by its new parent does not.
func processAlive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || !bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z"))
}
