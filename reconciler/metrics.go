package reconciler

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler/internal/observe"
)

// metrics are the reconciler's series on controller-runtime's registry,
// beside controller-runtime's own per-controller reconcile counts and
// durations: passes by product kind and outcome class, so a dashboard
// tells a rate limit from a user's mistake.
type metrics struct {
	passes   *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics() (*metrics, error) {
	passes := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "opkit_product_reconcile_total",
		Help: "Passes of the product reconciler by product kind and outcome: ok, or the error class (invalid, requeue, rate_limited, retriable, other).",
	}, []string{"kind", "outcome"})
	duration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "opkit_product_reconcile_duration_seconds",
		Help:    "Duration of a product reconciler pass by product kind.",
		Buckets: prometheus.ExponentialBuckets(0.005, 2, 14),
	}, []string{"kind"})
	var err error
	if passes, err = observe.Register(passes); err != nil {
		return nil, err
	}
	if duration, err = observe.Register(duration); err != nil {
		return nil, err
	}
	return &metrics{passes: passes, duration: duration}, nil
}

func (m *metrics) observe(kind string, err error, took time.Duration) {
	outcome := "ok"
	if err != nil {
		outcome = failure.ClassOf(err).String()
	}
	m.passes.WithLabelValues(kind, outcome).Inc()
	m.duration.WithLabelValues(kind).Observe(took.Seconds())
}
