package e2e_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/client-go/kubernetes"

	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// CPUProfileEnv names a directory: when set, each row of the scale
// benchmark writes there, for the first seconds of its cold converge and
// of the raw writer's second round, where each CPU-second went (<what> is
// products-cold and products-raw for the product clusters, and the
// sub-benchmark's name, component-1000-cold say, for a component row):
//
//   - <what>-process.pprof and <what>-apiserver.pprof, CPU profiles of the
//     benchmark's own process (the operator runs in it) and of the API
//     server (go tool pprof);
//   - <what>-cpu.txt, the CPU-seconds of every process of the machine
//     that used more than 0.1 s;
//   - <what>-requests.txt, the API server's requests by verb, resource and
//     subresource, from its apiserver_request_total counter.
//
// Unset means none of this.
const CPUProfileEnv = "OPKIT_E2E_CPUPROFILE"

// cpuWindow starts the recordings of CPUProfileEnv for seconds, named
// what; the returned function waits for them and writes them. Without
// the variable it does nothing.
func cpuWindow(b *testing.B, cp *controlplane.ControlPlane, what string, seconds int) (wait func()) {
	b.Helper()
	dir := os.Getenv(CPUProfileEnv)
	if dir == "" {
		return func() {}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatalf("%s: %v", CPUProfileEnv, err)
	}
	cs, err := kubernetes.NewForConfig(cp.RESTConfig())
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	process, err := os.Create(filepath.Join(dir, what+"-process.pprof"))
	if err != nil {
		b.Fatalf("%s: %v", CPUProfileEnv, err)
	}
	if err := pprof.StartCPUProfile(process); err != nil {
		b.Fatalf("%s: %v", CPUProfileEnv, err)
	}
	cpuBefore, reqBefore := processesCPU(), requestCounts(ctx, cs)
	done := make(chan error, 1)
	go func() {
		// The API server's profile takes its seconds; the process's is
		// stopped with it.
		raw, err := cs.Discovery().RESTClient().Get().AbsPath("/debug/pprof/profile").
			Param("seconds", strconv.Itoa(seconds)).DoRaw(ctx)
		pprof.StopCPUProfile()
		err = errors.Join(err, process.Close(),
			os.WriteFile(filepath.Join(dir, what+"-apiserver.pprof"), raw, 0o644),
			os.WriteFile(filepath.Join(dir, what+"-cpu.txt"), []byte(grownBy(cpuBefore, processesCPU(), 0.1, "%7.2fs %s\n")), 0o644),
			os.WriteFile(filepath.Join(dir, what+"-requests.txt"), []byte(grownBy(reqBefore, requestCounts(ctx, cs), 1, "%7.0f %s\n")), 0o644))
		done <- err
	}()
	return func() {
		if err := <-done; err != nil {
			b.Fatalf("%s: %v", CPUProfileEnv, err)
		}
	}
}

// grownBy lists what grew from before to after by at least least, the
// largest first, one line each in format (value, name).
func grownBy(before, after map[string]float64, least float64, format string) string {
	grown := map[string]float64{}
	for k, v := range after {
		if d := v - before[k]; d >= least {
			grown[k] = d
		}
	}
	keys := slices.SortedFunc(maps.Keys(grown), func(a, b string) int {
		return cmp.Or(cmp.Compare(grown[b], grown[a]), strings.Compare(a, b))
	})
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, format, grown[k], k)
	}
	return sb.String()
}

// processesCPU returns the CPU-seconds each process of the machine has used,
// by "pid name".
func processesCPU() map[string]float64 {
	out := map[string]float64{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue // ended meanwhile
		}
		s := string(raw)
		open, closing := strings.Index(s, "("), strings.LastIndex(s, ")")
		if open < 0 || closing < 0 || closing+2 > len(s) {
			continue
		}
		// after the name: state, then utime and stime at 12 and 13
		f := strings.Fields(s[closing+2:])
		if len(f) < 13 {
			continue
		}
		user, _ := strconv.ParseFloat(f[11], 64)
		system, _ := strconv.ParseFloat(f[12], 64)
		out[filepath.Base(filepath.Dir(path))+" "+s[open+1:closing]] = (user + system) / 100 // USER_HZ
	}
	return out
}

// requestCounts returns the API server's request counters by verb,
// resource and subresource; empty when they cannot be read.
func requestCounts(ctx context.Context, cs *kubernetes.Clientset) map[string]float64 {
	out := map[string]float64{}
	raw, err := cs.Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return out
	}
	const prefix = "apiserver_request_total{"
	for line := range strings.SplitSeq(string(raw), "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		end := strings.LastIndex(line, "} ")
		if end < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[end+2:], 64)
		if err != nil {
			continue
		}
		l := map[string]string{}
		for kv := range strings.SplitSeq(line[len(prefix):end], ",") {
			k, val, _ := strings.Cut(kv, "=")
			l[k] = strings.Trim(val, `"`)
		}
		name := l["verb"] + " " + l["resource"]
		if l["subresource"] != "" {
			name += "/" + l["subresource"]
		}
		out[name] += v
	}
	return out
}
