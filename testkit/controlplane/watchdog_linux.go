package controlplane

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// watchdog is a small shell process that cleans up after this process. It
// reads a pipe whose only writer is this process; the pipe closes when Stop
// closes it or, however this process dies (a panic, a timeout, SIGKILL),
// when the kernel closes its files. The watchdog then kills every process
// whose command line holds the control plane's marker: the run directory
// that every control-plane process is given a path in. Unlike the
// parent-death signal it also covers etcd and kube-apiserver, which envtest
// starts without one, and it does not depend on the thread that started a
// process staying alive.
type watchdog struct {
	cmd  *exec.Cmd
	pipe *os.File
}

// watchdogScript waits for the end of its input, then kills by marker. The
// marker comes from the environment, never the command line, so that the
// watchdog does not match itself.
const watchdogScript = `trap '' HUP INT QUIT TERM PIPE
while read -r _; do :; done
for f in /proc/[0-9]*/cmdline; do
	pid=${f#/proc/}
	pid=${pid%/cmdline}
	[ "$pid" = "$$" ] && continue
	case "$(tr '\0' ' ' < "$f" 2>/dev/null)" in
	*"$OPKIT_CONTROLPLANE_MARKER"*) kill -KILL "$pid" 2>/dev/null ;;
	esac
done
`

// watchdogMarkerEnv carries the marker to the watchdog.
const watchdogMarkerEnv = "OPKIT_CONTROLPLANE_MARKER"

// startWatchdog starts a watchdog for the processes whose command line
// holds marker.
func startWatchdog(marker string) (*watchdog, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting the watchdog: %w", err)
	}
	defer func() { _ = r.Close() }()
	cmd := exec.Command("/bin/sh", "-c", watchdogScript) //nolint:noctx // the watchdog must outlive every context: it acts when the process that started it is gone
	cmd.Stdin = r
	cmd.Env = append(os.Environ(), watchdogMarkerEnv+"="+marker)
	// A group of its own: a Ctrl-C meant for the tests does not reach it
	// before it has done its work (it ignores the signal anyway).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("starting the watchdog (/bin/sh): %w", err)
	}
	return &watchdog{cmd: cmd, pipe: w}, nil
}

// release tells the watchdog that the control plane stopped: it then kills
// whatever is left of it and exits.
func (wd *watchdog) release() {
	if wd == nil {
		return
	}
	_ = wd.pipe.Close()
	go func() { _ = wd.cmd.Wait() }()
}
