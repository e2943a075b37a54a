package controlplane

import "syscall"

// sysProcAttr makes the kernel kill a control-plane process when the test
// binary that started it dies, so a crashed or timed-out test leaves nothing
// running.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
