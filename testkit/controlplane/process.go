package controlplane

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// process is one control-plane binary started by this package (envtest
// manages etcd and kube-apiserver itself).
type process struct {
	name    string
	logPath string
	cmd     *exec.Cmd
	log     *os.File
	done    chan struct{}
	waitErr error
}

func startProcess(name, path, logPath string, args ...string) (*process, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("creating log file for %s: %w", name, err)
	}
	cmd := exec.Command(path, args...) //nolint:noctx // the process outlives any one context; stop ends it with SIGTERM, then SIGKILL after a grace period
	cmd.Stdout = log
	cmd.Stderr = log
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return nil, fmt.Errorf("starting %s (%s): %w", name, path, err)
	}
	p := &process{name: name, logPath: logPath, cmd: cmd, log: log, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		_ = log.Close()
		close(p.done)
	}()
	return p, nil
}

// exited returns a non-nil error when the process is no longer running.
func (p *process) exited() error {
	select {
	case <-p.done:
		return fmt.Errorf("%s exited (%v); its log is %s", p.name, p.waitErr, p.logPath) //nolint:errorlint // waitErr is nil after a clean exit; the exit is the failure, not its status
	default:
		return nil
	}
}

// stop sends SIGTERM, waits up to grace, then kills the process.
func (p *process) stop(grace time.Duration) error {
	select {
	case <-p.done:
		return nil
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stopping %s: %w", p.name, err)
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
	}
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("killing %s: %w", p.name, err)
	}
	<-p.done
	return nil
}
