// Package helm renders Helm charts with Helm's own chart loader and
// template engine (helm.sh/helm/v4), for the component reconciler:
//
//	//go:embed all:chart
//	var chart embed.FS
//
//	g, err := helm.New(chart, "chart", helm.Options{})
//	objects, err := g.Generate(ctx, "shop", "front", map[string]any{"replicaCount": 2})
//
// The chart is read from an fs.FS (use the all: prefix with embed, so that
// .helmignore and charts/_* files are kept) with its .helmignore, and
// rendered as Helm renders an install or upgrade:
//
//   - values: the parameters over values.yaml, checked against
//     values.schema.json; subcharts (vendored in charts/, as directories or
//     .tgz) get their part, conditions and tags enable them, import-values
//     work; the Chart.yaml kubeVersion constraint is checked;
//   - .Release: Name and Namespace of the component, Revision from
//     Environment.Revision, IsInstall for revision 1 and IsUpgrade after,
//     Service the reconciler's name;
//   - .Capabilities from Environment.Discovery (server version, API
//     versions), or Helm's offline defaults without it;
//   - lookup (and localLookup, for the component's own cluster) through
//     the Environment's readers, finding nothing without one; every Helm
//     function (toToml, tpl, include, required, sprig), plus
//     componentDigest and reconcilerName and Options.Funcs;
//   - the CRDs of crds/ first, then the templates' objects in path order;
//     NOTES.txt is left out. Unlike Helm, which only creates the CRDs of
//     crds/, the object engine updates and deletes them with the
//     component like any other object.
//
// Helm hooks become object engine annotations under
// "<Environment.ReconcilerName>/":
//
//   - pre-install and pre-upgrade hooks get an apply-order before the
//     chart's other objects (wave weight-16384), post-install and
//     post-upgrade hooks one after them (weight+16384); weights are limited
//     to [-16383, 16383]. A hook that is both pre and post for the same
//     kind of rendering runs in the pre wave.
//   - Install-only hooks get reconcile-policy once; hooks with an upgrade
//     event get on-object-or-component-change, so they run again whenever
//     the component changes. An upgrade-only hook is left out of an install
//     (revision 1). Test and rollback hooks are left out.
//   - hook-succeeded sets purge-order to the hook's own wave: the object is
//     deleted once ready, at the end of its wave. before-hook-creation
//     (Helm's default) sets update-policy recreate.
//   - helm.sh/resource-policy: keep sets delete-policy orphan, on any
//     object.
//   - pre-delete and post-delete hooks and the hook-failed delete policy
//     are refused with a *generators.TemplateError naming the template:
//     the object engine deletes a component's objects in delete waves.
package helm
