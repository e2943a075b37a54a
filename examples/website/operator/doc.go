// Package operator is the example website operator's code: a Helm chart
// (the web server, its content and admin credentials) and a kustomization
// (its network policy and disruption budget), both embedded, rendered
// from a Website's spec by opkit's component reconciler and applied in
// waves by the object engine.
//
//	r, err := operator.New(operator.Options{})
//	cacheOpts, clientOpts := r.ManagerOptions()
//	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{Scheme: operator.Scheme(), Cache: cacheOpts, Client: clientOpts})
//	err = r.SetupWithManager(ctx, mgr)
package operator
