// Package faults injects Kubernetes API errors into a client, seeded and
// reproducible, so tests can prove that code survives conflicts, rate
// limiting, server errors and timeouts from a real API server.
//
// An [Injector] is configured with rules (which verbs and resources, which
// fault, at what rate) and a seed. It wraps either an HTTP transport, for a
// rest.Config used by a real manager, or a controller-runtime client:
//
//	inj, err := faults.New(faults.Options{Seed: 1, Rules: []faults.Rule{
//		{Verbs: []string{"update"}, Resources: []string{"statefulsets.apps"}, Fault: faults.Conflict, Rate: 0.3},
//	}})
//	cfg := cp.RESTConfig()
//	cfg.Wrap(inj.WrapTransport) // every request through cfg may now fail
//
// A WatchCut rule lets watches through and ends each stream after a seeded
// duration around Rule.CutAfter, so informers must resume from the last
// resource version they saw:
//
//	{Fault: faults.WatchCut, Rate: 1, CutAfter: 3 * time.Second}
//
// The same seed and the same sequence of requests give the same faults.
// Rule.First makes the first matching requests fail whatever the seed, so a
// short run is sure to meet a fault it must prove it survives:
//
//	{Verbs: []string{"update"}, Fault: faults.Conflict, Rate: 0.2, First: 1}
//
// Counts and History say what was injected.
//
// A [Lag] makes a client's reads lag behind its own writes, as a manager's
// cache does while its informers have not seen them, until Release:
//
//	lag := faults.NewLag(schema.GroupKind{Kind: "ConfigMap"})
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{NewClient: lag.NewClient})
//	lag.Hold()
package faults
