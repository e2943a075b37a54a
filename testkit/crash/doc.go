// Package crash kills an operator at a chosen write and starts it again,
// so a test can prove that whatever a crash leaves behind converges to
// what an uninterrupted run leaves.
//
// The operator runs in the test process (typically a controller-runtime
// manager) on a rest.Config whose transport the harness owns. A run armed
// to die after its k-th write lets that write reach the API server, loses
// its response and fails every later request, as a process killed at that
// instant would; then the run's context is cancelled and the harness waits
// for the operator to return. A new run starts from nothing: a new
// manager, new caches, only what the cluster holds.
//
//	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: runManager})
//	for k := 1; ; k++ {
//		res, err := h.Recover(ctx, k, converged, time.Minute)
//		if err != nil {
//			t.Fatalf("killed after write %d: %v", k, err)
//		}
//		if !res.Killed {
//			break // the run converged in fewer than k writes: every k was tried
//		}
//		// compare the cluster with the uninterrupted run's
//	}
//
// Writes are counted at the HTTP layer, as the API server receives them;
// by default events and leases do not count (they record what the
// operator did and who leads, not what it manages).
package crash
