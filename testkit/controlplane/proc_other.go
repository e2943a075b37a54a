//go:build !linux

package controlplane

import "syscall"

// sysProcAttr is empty where the parent-death signal does not exist.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{}
}
