package main

import (
	"fmt"
	"os"
	"strings"

	nodefast "sigs.k8s.io/kwok/kustomize/stage/node/fast"
	nodelease "sigs.k8s.io/kwok/kustomize/stage/node/heartbeat-with-lease"
	podfast "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
)

func main() {
	stages := []string{
		nodefast.DefaultNodeInit,
		nodelease.DefaultNodeHeartbeatWithLease,
		podfast.DefaultPodReady,
		podfast.DefaultPodComplete,
		podfast.DefaultPodDelete,
	}
	var out strings.Builder
	for _, s := range stages {
		out.WriteString("---\n")
		out.WriteString(strings.TrimPrefix(strings.TrimSpace(s), "---\n"))
		out.WriteString("\n")
	}
	if _, err := fmt.Fprint(os.Stdout, out.String()); err != nil {
		fmt.Fprintln(os.Stderr, "kwok-stages:", err)
		os.Exit(1)
	}
}
