// Package reconciler is opkit's product reconciler: one generic
// controller-runtime reconciler that turns a product's cluster resource
// (roles and role groups) into ServiceAccount, ConfigMaps, Services,
// StatefulSets and PodDisruptionBudgets, composing the other opkit
// modules: configfold folds the config layers, imageresolve resolves the
// image, builders builds the objects, productlogging and vector render
// logging, sidecar injects sidecars, orphan retires removed role groups and
// apply writes every object, recording what it applied in the resource's
// status.
//
// An operator author declares the product's roles and builds the
// reconciler in main.go:
//
//	cfg := reconciler.Config[*v1alpha1.KafkaCluster]{
//		Name:  "kafka.example.com",
//		For:   &v1alpha1.KafkaCluster{},
//		Roles: reconciler.StaticRoles[*v1alpha1.KafkaCluster](reconciler.Catalog{
//			"broker": {ContainerPorts: ports, ServicePorts: servicePorts},
//		}),
//		Image: imageresolve.Options{ProductName: "kafka", Defaults: defaults},
//	}
//	r, err := reconciler.New(cfg) // a bad Config is refused here, naming every bad field
//	cacheOpts, clientOpts := r.ManagerOptions()
//	mgr, _ := ctrl.NewManager(restConfig, ctrl.Options{Scheme: scheme, Cache: cacheOpts, Client: clientOpts})
//	err = r.SetupWithManager(ctx, mgr)
//
// The component reconciler is wired the same way: New, ManagerOptions,
// SetupWithManager.
//
// Reconciler.Plan tells what the next passes would do for a resource, as
// it is or as its author is about to write it, without writing anything
// (server-side dry runs through the object engine's plan).
//
// Package reconciler/component is the reconciler of the second model:
// components rendered by a generator.
package reconciler
