package controlplane

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killByArg kills (SIGKILL) every process whose command line holds arg,
// and returns their process ids. The API server is started by envtest,
// which does not expose its process; its --cert-dir argument, a directory
// of ours, names it.
func killByArg(arg string) ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(append(cmdline, 0), append([]byte(arg), 0)) {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
			return pids, fmt.Errorf("killing process %d: %w", pid, err)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// running reports whether a process pid still exists (a zombie not reaped
// yet included).
func running(pid int) bool {
	_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid)))
	return err == nil
}
