// Command demo runs the example operators on an embedded control plane
// (etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok
// nodes, no Docker) and walks through what they do, each step waiting for
// a real condition with a deadline:
//
//	make demo            # from the repository root
//	make demo KEEP=1     # leave the control plane running afterwards
//
// It exits 0 only when every step reached its condition; otherwise it names
// the step and shows the resource's conditions and recent events. Progress
// is a live view on a terminal and plain lines elsewhere (CI).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	var opts options
	flag.BoolVar(&opts.keep, "keep", false, "leave the control plane running after the script, until interrupted")
	flag.BoolVar(&opts.plain, "plain", false, "print plain lines even on a terminal")
	flag.Parse()
	if v := os.Getenv("KEEP"); v != "" && v != "0" && v != "false" {
		opts.keep = true
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, opts)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo failed:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	keep, plain bool
}
