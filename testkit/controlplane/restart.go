package controlplane

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// RestartAPIServer kills kube-apiserver (SIGKILL, as a crashed or
// evicted API server dies) and starts it again on the same address with
// the same certificates, while etcd keeps running with its data. Every
// client, controller and watch sees its connections fail and then the same
// cluster again. It returns once the new process serves, or when ctx ends
// first (the restart then goes on; a later call waits for it). Requests
// sent in between fail; what clients do about it is what a test observes.
// Linux only.
func (cp *ControlPlane) RestartAPIServer(ctx context.Context) error {
	if cp.env == nil || cp.env.ControlPlane.APIServer == nil {
		return errors.New("restarting the API server: the control plane is not running")
	}
	done := make(chan error, 1)
	go func() {
		cp.restartMu.Lock()
		defer cp.restartMu.Unlock()
		done <- cp.restartAPIServer()
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("restarting the API server: %w", ctx.Err())
	}
}

func (cp *ControlPlane) restartAPIServer() error {
	pids, err := killByArg("--cert-dir=" + cp.certDir)
	if err != nil {
		return fmt.Errorf("killing kube-apiserver: %w", err)
	}
	if len(pids) == 0 {
		return errors.New("killing kube-apiserver: no process found")
	}
	// envtest reaps the process; its Stop then sees it exited (until then
	// it may fail to signal the dead process group: try again).
	api := cp.env.ControlPlane.APIServer
	err = wait.PollUntilContextTimeout(context.Background(), pollInterval, 30*time.Second, true, func(context.Context) (bool, error) {
		for _, pid := range pids {
			if running(pid) {
				return false, nil
			}
		}
		return api.Stop() == nil, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the killed kube-apiserver to be reaped: %w", err)
	}
	if err := api.Start(); err != nil {
		return fmt.Errorf("starting kube-apiserver again: %w (log: %s)", err, filepath.Join(cp.LogDir, "kube-apiserver.log"))
	}
	return nil
}
