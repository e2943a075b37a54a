package orphan

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names.
const (
	// MetricPending is a gauge of the role groups of a cluster not yet fully
	// reclaimed, written on every pass, zero included.
	MetricPending = "opkit_orphan_cleanup_pending"
	// MetricDrainTimeouts counts StatefulSets deleted while their pods were
	// still terminating because the drain timed out.
	MetricDrainTimeouts = "opkit_orphan_drain_timeouts_total"
)

type metrics struct {
	pending       *prometheus.GaugeVec
	drainTimeouts *prometheus.CounterVec
}

var metricLabels = []string{"namespace", "cluster"}

// newMetrics registers the collectors, reusing ones another Cleaner already
// registered on the same registry.
func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	pending := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: MetricPending,
		Help: "Role groups removed from a cluster's spec whose resources are not yet fully reclaimed.",
	}, metricLabels)
	timeouts := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: MetricDrainTimeouts,
		Help: "StatefulSets of removed role groups deleted with pods still terminating after the drain timeout.",
	}, metricLabels)
	var err error
	if pending, err = register(reg, pending); err != nil {
		return nil, err
	}
	if timeouts, err = register(reg, timeouts); err != nil {
		return nil, err
	}
	return &metrics{pending: pending, drainTimeouts: timeouts}, nil
}

func register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing, nil
			}
		}
		return c, fmt.Errorf("registering orphan metrics: %w", err)
	}
	return c, nil
}
