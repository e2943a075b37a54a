//go:build !linux

package servertest_test

import "syscall"

// dieWithTest sets nothing where the kernel cannot kill a child with its
// parent: a test that dies may leave its operator running.
func dieWithTest() *syscall.SysProcAttr { return nil }
