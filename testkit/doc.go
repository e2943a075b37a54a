// Package testkit is what opkit's tests, and the tests of operators built
// with opkit, stand on: a real control plane started once per test package,
// one namespace per test, and waits on conditions with deadlines.
//
// A test package declares one [Env] and hands it its TestMain:
//
//	var env = &testkit.Env{Options: controlplane.Options{Controllers: true}}
//
//	func TestMain(m *testing.M) { env.Main(m) }
//
//	func TestScaleDown(t *testing.T) {
//		cp := env.Require(t)         // skips locally, fails under CI, when assets are missing
//		ns := testkit.Namespace(t, cp.Client)
//		...
//		sts, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*appsv1.StatefulSet, bool, error) {
//			...
//		}, 30*time.Second)
//	}
//
// Subpackages: [github.com/opkit-dev/opkit/testkit/controlplane] starts the
// control plane, [github.com/opkit-dev/opkit/testkit/faults] injects API
// errors, [github.com/opkit-dev/opkit/testkit/apicount] counts API calls,
// [github.com/opkit-dev/opkit/testkit/crash] kills an operator at a chosen
// write and restarts it.
//
// Clocks: use k8s.io/utils/clock/testing's FakeClock; testkit adds nothing to
// it, so it does not wrap it.
package testkit
