// Package controlplane starts a real Kubernetes control plane for tests.
//
// By default it runs etcd and kube-apiserver through controller-runtime's
// envtest, using binaries built by `make k8s-assets` (see [AssetsDir]). With
// [Options.Controllers] it also runs kube-controller-manager, kube-scheduler
// and kwok managing fake nodes, so StatefulSets get pods that become Running
// and Ready, scale-downs drain, and owner-reference garbage collection
// happens for real.
//
//	cp, err := controlplane.Start(ctx, controlplane.Options{Controllers: true})
//	if err != nil {
//		return err // an *AssetsError says to run `make k8s-assets`
//	}
//	defer cp.Stop()
//	err = cp.Client.Create(ctx, statefulSet)
//
// Every process writes its output to a file under [ControlPlane.LogDir];
// errors from Start name the files to read.
package controlplane
