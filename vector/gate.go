package vector

import (
	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/productlogging"
)

// SkippedEventReason is the reason of the Warning event a caller emits when
// a Decision says to warn.
const SkippedEventReason = "VectorSidecarSkipped"

// GateInput is what decides whether a role group runs the agent.
type GateInput struct {
	// AggregatorConfigMap is the discovery ConfigMap the cluster names in
	// its spec (commonsv1alpha1.ClusterSpec.VectorAggregatorConfigMapName);
	// empty when it names none. When set, the framework renders vector.yaml.
	AggregatorConfigMap string
	// OwnsVectorConfig says the role writes vector.yaml into its role
	// group's ConfigMap itself.
	OwnsVectorConfig bool
	// Producers are the role's log producers (its declaration); without
	// any, the agent has nothing to collect.
	Producers []productlogging.Producer
	// Logging is the role group's folded logging spec; nil means the agent
	// is not enabled.
	Logging *commonsv1alpha1.LoggingSpec
}

// Decision is the gate's answer.
type Decision struct {
	// Inject says to add the agent's provider to the role group's build.
	Inject bool
	// Render says the framework renders vector.yaml (RenderConfig) into the
	// role group's ConfigMap: the agent runs and the role does not own its
	// configuration.
	Render bool
	// Warn says the user asked for the agent and cannot have it for a
	// reason they can fix; emit a Warning event with SkippedEventReason and
	// Reason.
	Warn bool
	// Reason says why the agent is skipped; empty when it is injected.
	Reason string
}

// Decide is the one gating rule. The agent is injected only when the
// logging spec enables it, the role declares log producers, and something
// supplies vector.yaml (the cluster names an aggregator, or the role owns
// its configuration). Injecting it otherwise would fail the provider or the
// renderer on every pass. A role without producers is skipped without a
// warning: nothing would be collected, and the user can change nothing about
// it.
func Decide(in GateInput) Decision {
	enabled := in.Logging != nil && in.Logging.EnableVectorAgent != nil && *in.Logging.EnableVectorAgent
	supplied := in.AggregatorConfigMap != "" || in.OwnsVectorConfig
	switch {
	case !enabled:
		return Decision{Reason: "logging.enableVectorAgent is not true"}
	case len(in.Producers) == 0:
		return Decision{Reason: "logging.enableVectorAgent is true, but the role declares no log producers, " +
			"so there are no log files to collect; logs go to the console only"}
	case !supplied:
		return Decision{Warn: true, Reason: "logging.enableVectorAgent is true, but the cluster names no " +
			"Vector aggregator discovery ConfigMap and the role does not write its own vector.yaml; " +
			"logs go to the console only"}
	default:
		return Decision{Inject: true, Render: !in.OwnsVectorConfig}
	}
}

// LoggingOptions returns the productlogging options matching the decision:
// a file appender only when the agent collects the files, because only
// then is the log directory backed by a volume.
func (d Decision) LoggingOptions() productlogging.Options {
	return productlogging.Options{CollectFiles: d.Inject}
}
