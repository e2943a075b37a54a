package servertest_test

import (
	"context"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/opkit-dev/opkit/testkit"
)

// series returns the series of a metric on controller-runtime's registry
// whose labels include labels, nil when there is none.
func series(t *testing.T, name string, labels map[string]string) *dto.Metric {
	t.Helper()
	families, err := ctrlmetrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metric:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue metric
				}
			}
			return m
		}
	}
	return nil
}

// gauge returns the value of a gauge's series, -1 when there is none.
func gauge(t *testing.T, name string, labels map[string]string) float64 {
	t.Helper()
	if m := series(t, name, labels); m != nil {
		return m.GetGauge().GetValue()
	}
	return -1
}

// counter returns the value of a counter's series, 0 when there is none.
func counter(t *testing.T, name string, labels map[string]string) float64 {
	t.Helper()
	if m := series(t, name, labels); m != nil {
		return m.GetCounter().GetValue()
	}
	return 0
}

// waitCounter waits until the counter name with labels reaches atLeast:
// a pass observes its metrics after its status write, so a test that saw
// the status may read the counter a moment too early.
func waitCounter(t *testing.T, name string, labels map[string]string, atLeast float64) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (float64, bool, error) {
		n := counter(t, name, labels)
		return n, n >= atLeast, nil
	}, time.Minute); err != nil {
		t.Errorf("%s%v counted: %v, want at least %v", name, labels, err, atLeast)
	}
}
