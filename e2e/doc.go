// Package e2e holds opkit's cross-module scenarios, run against a real
// control plane (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler and kwok nodes from testkit) with operators built the way
// the examples build them:
//
//   - faults: seeded conflicts, rate limits, server errors and cut watch
//     streams; the clusters converge to exactly the fault-free end state,
//     and objects of other owners are left alone;
//   - crashes: the operator killed after each write of a cold converge and
//     of a role group's retirement, restarted, and converging to the
//     uninterrupted run's end state; the API server restarted mid-pass;
//     two replicas with leader election, the leader killed mid-pass;
//   - scale: benchmarks of cold converge, no-op resync, reverted edits,
//     retirement and memory, each beside a raw writer measured in the
//     same run;
//   - errors: the failure class, author and field of every exported error
//     type of every opkit module, in one table.
//
// Everything is in the tests; see the README for how to run them, the
// environment variables that set sizes and seeds, and the figures.
package e2e
