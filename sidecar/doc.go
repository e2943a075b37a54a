// Package sidecar injects auxiliary containers, volumes and settings into a
// role group's pod spec through Providers, collected in a Manager.
//
// A Manager is built once at start-up with the providers every role group
// may use. Each build takes its own copy with CloneForBuild, adjusts it
// (enables or disables providers, registers role-specific ones, hands over
// the resolved product image) and then, before the StatefulSet is applied,
// checks every prerequisite and injects:
//
//	m := base.CloneForBuild()
//	m.SetProductImage(sidecar.ProductImage{Reference: image})
//	target := sidecar.Target{Scope: scope, MainContainer: "main"}
//	if err := m.ValidateAll(ctx, reader, target); err != nil {
//		return err // a *builders.ValidationError names the missing object
//	}
//	if err := m.Inject(&sts.Spec.Template.Spec, target); err != nil {
//		return err
//	}
//
// Providers run in (phase, name) order, so the pod spec does not depend on
// the order in which they were registered. Providers never modify
// themselves, which is what makes a clone cheap and safe. The JMXExporter
// provider is built in; the vector module supplies the log agent.
package sidecar
