//go:build !linux

package controlplane

import "errors"

// killByArg is not supported outside Linux.
func killByArg(string) ([]int, error) {
	return nil, errors.New("killing the API server is supported on Linux only")
}

func running(int) bool { return false }
