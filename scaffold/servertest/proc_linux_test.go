package servertest_test

import "syscall"

// dieWithTest makes the kernel kill a process the test starts when the
// test binary dies, so a crashed or timed-out test leaves no operator
// running.
func dieWithTest() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
