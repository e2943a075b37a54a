// Package vector runs the Vector log agent beside a role group's
// containers and ships their log files to an aggregator.
//
// Four pieces, used in this order by a reconcile:
//
//	d := vector.Decide(vector.GateInput{AggregatorConfigMap: cm, OwnsVectorConfig: owns, Logging: folded})
//	if d.Warn { recorder.Event(cr, "Warning", vector.SkippedEventReason, d.Reason) }
//	opts := d.LoggingOptions() // productlogging.Render gets a file appender only when collected
//	if d.Render {
//		addr, err := vector.DiscoverAggregator(ctx, reader, ns, cm)
//		yaml, err := vector.RenderConfig(vector.ConfigOptions{Producers: ps, Aggregator: addr, Scope: scope})
//		// put yaml under vector.ConfigFileName in the role group's ConfigMap
//	}
//	if d.Inject {
//		p, err := vector.NewProvider(vector.ProviderOptions{Producers: ps, LogVolumeSize: size})
//		err = manager.Register(p) // on the build's sidecar.Manager clone
//	}
//
// Decide is the single gating rule: the agent runs only when something
// supplies vector.yaml and the user enabled it, and the same answer decides
// whether the products write log files at all, so no appender ever writes
// to a directory that no volume backs.
package vector
