package orphan

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names.
const (
	// MetricPending is a gauge of the role groups of a cluster not yet fully
	// reclaimed, written on every pass, zero and passes stopped by a rate
	// limit included.
	MetricPending = "opkit_orphan_cleanup_pending"
	// MetricDrainTimeouts counts StatefulSets deleted while their pods were
	// still terminating because the drain timed out.
	MetricDrainTimeouts = "opkit_orphan_drain_timeouts_total"
)

// Metric label names. Kind is the cluster resource's kind, so the clusters
// of two products in one process keep their own series.
const (
	MetricLabelKind      = "kind"
	MetricLabelNamespace = "namespace"
	MetricLabelCluster   = "cluster"
)

type metrics struct {
	pending       *prometheus.GaugeVec
	drainTimeouts *prometheus.CounterVec
}

// newMetrics registers the collectors, reusing ones another Cleaner already
// registered on the same registry.
func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	labels := []string{MetricLabelKind, MetricLabelNamespace, MetricLabelCluster}
	pending := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: MetricPending,
		Help: "Role groups removed from a cluster's spec whose resources are not yet fully reclaimed.",
	}, labels)
	timeouts := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: MetricDrainTimeouts,
		Help: "StatefulSets of removed role groups deleted with pods still terminating after the drain timeout.",
	}, labels)
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

func (m *metrics) setPending(sc scope, n int) {
	m.pending.WithLabelValues(sc.kind, sc.namespace, sc.cluster).Set(float64(n))
}

func (m *metrics) drainTimedOut(sc scope) {
	m.drainTimeouts.WithLabelValues(sc.kind, sc.namespace, sc.cluster).Inc()
}

func (m *metrics) forget(sc scope) {
	m.pending.DeleteLabelValues(sc.kind, sc.namespace, sc.cluster)
	m.drainTimeouts.DeleteLabelValues(sc.kind, sc.namespace, sc.cluster)
}
