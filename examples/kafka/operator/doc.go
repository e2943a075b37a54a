// Package operator is the example Kafka operator's product code: the role
// catalog (controllers and brokers), the config files it writes, its
// dependencies and the bootstrap discovery ConfigMap, composed into an
// opkit product reconciler by Config and New. Everything else (the StatefulSets,
// Services, PodDisruptionBudgets, logging, the Vector agent, the JMX
// exporter, drift, cleanup) is the reconciler's.
//
//	r, err := operator.New(operator.Options{})
//	cacheOpts, clientOpts := r.ManagerOptions()
//	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{Scheme: operator.Scheme(), Cache: cacheOpts, Client: clientOpts})
//	err = r.SetupWithManager(ctx, mgr)
package operator
