// Package vector runs the Vector log agent beside a role group's
// containers and ships their log files to an aggregator. It is pure: it
// declares what it needs from the cluster as data and never reads it.
//
// Used in this order by a reconcile:
//
//	d := vector.Decide(vector.GateInput{AggregatorConfigMap: name, OwnsVectorConfig: owns, Producers: ps, Logging: folded})
//	if d.Warn { recorder.Event(cr, "Warning", vector.SkippedEventReason, d.Reason) }
//	opts := d.LoggingOptions() // productlogging.Render gets a file appender only when collected
//	if d.Render {
//		req := vector.AggregatorRequirement(scope, name) // read it: cm, or nil when absent
//		addr, err := vector.AggregatorAddress(req, cm)
//		yaml, err := vector.RenderConfig(vector.ConfigOptions{Producers: ps, Aggregator: addr, Scope: scope})
//		// put yaml under vector.ConfigFileName in the role group's ConfigMap
//	}
//	if d.Inject {
//		p, err := vector.NewProvider(vector.ProviderOptions{Producers: ps, LogVolumeSize: size})
//		plan, err := registry.Plan(sidecar.PlanOptions{ProductImage: image, Extra: []sidecar.Provider{p}})
//	}
//
// Decide is the single gating rule: the agent runs only when the user
// enabled it, the role declares log producers and something supplies
// vector.yaml; the same answer decides whether the products write log files
// at all, so no appender ever writes to a directory that no volume backs.
// Every error reports its class through package failure: a discovery
// ConfigMap the user named that is missing or wrong is invalid input naming
// spec.vectorAggregatorConfigMapName; bad options are the operator's.
package vector
