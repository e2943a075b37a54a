// Package sidecar injects auxiliary containers, volumes and settings into a
// role group's pod spec through Providers, and declares as data the
// ConfigMaps and Secrets they need. It never talks to the API server.
//
// A Registry is built once at start-up with the providers every role group
// may use; it never changes. Each build derives an immutable Plan from it
// (the enabled providers, the resolved product image, providers of its
// own), hands the plan to the StatefulSet builder as an injector, so the
// sidecars are part of the template the user's pod overrides apply to, and
// checks the plan's requirements before the StatefulSet is applied:
//
//	reg, err := sidecar.NewRegistry(jmx) // at start-up
//
//	plan, err := reg.Plan(sidecar.PlanOptions{ProductImage: image, Extra: []sidecar.Provider{logAgent}})
//	target := builders.PodTarget{Scope: scope, MainContainer: "main"}
//	err = sidecar.CheckAll(plan.Requirements(target), func(r sidecar.Requirement) (sidecar.Object, error) {
//		obj := r.NewObject()
//		if err := reader.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
//			if apierrors.IsNotFound(err) {
//				return nil, nil
//			}
//			return nil, apierr.Classify(err)
//		}
//		return obj, nil
//	})
//	sts, err := builders.NewStatefulSet(scope, main).WithInjectors(plan).WithPodOverrides(layers...).Build()
//
// Providers run in (phase, name) order, so the pod spec does not depend on
// the order in which they were given. Every error reports its class through
// package failure: a missing object the user named is invalid input naming
// the field, a missing object the framework names is a wait, everything
// else is the operator's mistake (see Requirement.Check). The JMXExporter
// provider is built in; the vector module supplies the log agent.
package sidecar
