package apply

// checkOrders rejects orders that could never finish:
//
//   - an instance of a type the set defines applied in an earlier wave
//     than its CRD or APIService (it would wait for its type forever);
//   - a namespaced object applied in an earlier wave than the Namespace of
//     the set it lives in;
//   - an instance deleted in a later wave than its type (the type is
//     deleted only once no instance is left).
func (r *Engine) checkOrders(set []*desired, pos map[*desired]int) error {
	namespaces := map[string]*desired{}
	for _, d := range set {
		if d.gvk.GroupKind() == gkNamespace {
			namespaces[d.obj.GetName()] = d
		}
	}
	for _, inst := range set {
		if ns, ok := namespaces[inst.obj.GetNamespace()]; ok && inst.settings.applyOrder < ns.settings.applyOrder {
			return r.invalid(inst.ref, pos[inst], r.prefix+AnnotationApplyOrder,
				"apply order %d comes before %d of %s, the namespace it lives in", inst.settings.applyOrder, ns.settings.applyOrder, ns.ref)
		}
		if !inst.managedInstance {
			continue
		}
		for _, typ := range set {
			if len(typ.managedTypes) == 0 || !matchesType(typ.managedTypes, inst.gvk) {
				continue
			}
			if inst.settings.applyOrder < typ.settings.applyOrder {
				return r.invalid(inst.ref, pos[inst], r.prefix+AnnotationApplyOrder,
					"apply order %d comes before %d of %s, which defines its type", inst.settings.applyOrder, typ.settings.applyOrder, typ.ref)
			}
			if inst.settings.delOrder > typ.settings.delOrder {
				return r.invalid(inst.ref, pos[inst], r.prefix+AnnotationDeleteOrder,
					"delete order %d comes after %d of %s, which defines its type and is deleted only once no instance is left",
					inst.settings.delOrder, typ.settings.delOrder, typ.ref)
			}
		}
	}
	return nil
}
