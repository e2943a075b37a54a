package component

import (
	"github.com/prometheus/client_golang/prometheus"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/reconciler/internal/observe"
)

// metrics are the component reconciler's series on controller-runtime's
// registry, labelled by controller (the reconciler name), beside
// controller-runtime's own per-controller counts and durations.
type metrics struct {
	reconciles *prometheus.CounterVec
	errors     *prometheus.CounterVec
	dependents *prometheus.GaugeVec
	unready    *prometheus.GaugeVec
	state      *prometheus.GaugeVec
}

// states are every State, for the state gauge.
var states = []componentv1alpha1.State{
	componentv1alpha1.StateReady, componentv1alpha1.StatePending, componentv1alpha1.StateProcessing,
	componentv1alpha1.StateDeletionPending, componentv1alpha1.StateDeleting, componentv1alpha1.StateError,
}

func newMetrics() (*metrics, error) {
	m := &metrics{
		reconciles: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "opkit_component_reconcile_total",
			Help: "Passes of the component reconciler, by controller.",
		}, []string{"controller"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "opkit_component_reconcile_errors_total",
			Help: "Failed passes of the component reconciler, by controller and error class (invalid, requeue, rate_limited, retriable, other).",
		}, []string{"controller", "class"}),
		dependents: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "opkit_component_dependents",
			Help: "Dependent objects in a component's inventory.",
		}, []string{"controller", "namespace", "name"}),
		unready: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "opkit_component_dependents_unready",
			Help: "Dependent objects of a component that are not ready (or completed).",
		}, []string{"controller", "namespace", "name"}),
		state: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "opkit_component_state",
			Help: "A component's state: 1 for the current state, 0 for the others.",
		}, []string{"controller", "namespace", "name", "state"}),
	}
	var err error
	if m.reconciles, err = observe.Register(m.reconciles); err != nil {
		return nil, err
	}
	if m.errors, err = observe.Register(m.errors); err != nil {
		return nil, err
	}
	if m.dependents, err = observe.Register(m.dependents); err != nil {
		return nil, err
	}
	if m.unready, err = observe.Register(m.unready); err != nil {
		return nil, err
	}
	if m.state, err = observe.Register(m.state); err != nil {
		return nil, err
	}
	return m, nil
}

// observe records a finished pass of a component.
func (m *metrics) observe(controller, namespace, name string, status *componentv1alpha1.Status, err error) {
	m.reconciles.WithLabelValues(controller).Inc()
	if err != nil {
		m.errors.WithLabelValues(controller, failure.ClassOf(err).String()).Inc()
	}
	unready := 0
	for i := range status.Inventory.Items {
		switch status.Inventory.Items[i].EffectivePhase() {
		case inventory.PhaseReady, inventory.PhaseCompleted:
		default:
			unready++
		}
	}
	m.dependents.WithLabelValues(controller, namespace, name).Set(float64(len(status.Inventory.Items)))
	m.unready.WithLabelValues(controller, namespace, name).Set(float64(unready))
	for _, s := range states {
		v := 0.0
		if s == status.State {
			v = 1
		}
		m.state.WithLabelValues(controller, namespace, name, string(s)).Set(v)
	}
}

// forget removes the series of a component that is gone.
func (m *metrics) forget(controller, namespace, name string) {
	m.dependents.DeleteLabelValues(controller, namespace, name)
	m.unready.DeleteLabelValues(controller, namespace, name)
	for _, s := range states {
		m.state.DeleteLabelValues(controller, namespace, name, string(s))
	}
}
