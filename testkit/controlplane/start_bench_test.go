package controlplane_test

import (
	"testing"
	"time"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// BenchmarkStart measures a full start and stop of the control plane, with
// and without controllers, in the same run. It reports both durations and
// their ratio; absolute times vary from machine to machine, the ratio much
// less.
func BenchmarkStart(b *testing.B) {
	var plain, full time.Duration
	for b.Loop() {
		plain += startStop(b, controlplane.Options{})
		full += startStop(b, controlplane.Options{Controllers: true})
	}
	n := float64(b.N)
	b.ReportMetric(plain.Seconds()/n, "apiserver-s/start")
	b.ReportMetric(full.Seconds()/n, "controllers-s/start")
	b.ReportMetric(float64(full)/float64(plain), "controllers/apiserver")
}

func startStop(b *testing.B, opts controlplane.Options) time.Duration {
	b.Helper()
	began := time.Now()
	env := &testkit.Env{Options: opts}
	env.Require(b)
	elapsed := time.Since(began)
	if err := env.Stop(); err != nil {
		b.Fatalf("stopping: %v", err)
	}
	return elapsed
}
