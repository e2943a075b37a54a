// Package component is opkit's component reconciler: a generic
// controller-runtime reconciler for custom resources whose spec is the
// parameters of a generator (package github.com/opkit-dev/opkit/generators:
// Helm charts, kustomizations, Go templates). Each pass renders the
// component's objects and applies them through the object engine
// (package github.com/opkit-dev/opkit/apply), in apply waves, recording
// what it applied in the component's status; deleting the component
// deletes them in delete waves.
//
// An operator declares its component type (embedding the Status and the
// spec blocks of package github.com/opkit-dev/opkit/api/component/v1alpha1)
// and wires the reconciler in main.go:
//
//	kinds := []schema.GroupVersionKind{appsv1.SchemeGroupVersion.WithKind("Deployment"), corev1.SchemeGroupVersion.WithKind("ConfigMap")}
//	chart, _ := helm.New(chartFS, "chart", helm.Options{})
//	r, err := component.New[*v1alpha1.WebShop]("webshop.example.com", chart, component.Options{Kinds: kinds})
//	cacheOpts, clientOpts := r.ManagerOptions()
//	mgr, _ := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Cache: cacheOpts, Client: clientOpts})
//	err = r.WithPostReconcileHook(notify).SetupWithManager(ctx, mgr)
//
// The component's spec (with the data of its ConfigMap and Secret
// references added) becomes the generator's parameters; a change of the
// spec, its annotations or a referenced object's data changes the
// component digest, which starts a new processing cycle and, once its
// objects are rendered, a new revision. The status tells where the
// component is (Ready, Pending, Processing, DeletionPending, Deleting,
// Error) with a Ready condition whose reason says why, and is written only
// when it changed. Events are recorded on state changes, not per pass.
//
// Optional interfaces, implemented by the component or its spec, tune a
// component: PlacementConfiguration, ClientConfiguration (a remote
// cluster), ImpersonationConfiguration and ServiceAccountConfiguration,
// SuspensionConfiguration, RequeueConfiguration, RetryConfiguration,
// TimeoutConfiguration, PolicyConfiguration, TypeConfiguration and
// ReapplyConfiguration; the spec blocks of api/component/v1alpha1
// implement them.
//
// Plan and PlanDelete tell what the next passes would do for a component
// (as it is, or as its author is about to write it) without writing
// anything.
//
// Errors follow package github.com/opkit-dev/opkit/api/failure: invalid
// input (a bad policy name, a kubeconfig that does not load, a template
// refusing the parameters) is state Error until the component changes;
// transient failures and missing references are state Pending, retried
// after their delay; rate limits back off without a state change. The
// next pass follows every failure of a pass (failure.RetryOf), so a server
// error beside invalid input or a wait is retried with the backoff.
package component
