package servertest

import (
	"testing"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// env is the control plane of the package's tests; its controllers,
// scheduler and fake nodes let StatefulSets really get pods.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true}}

func TestMain(m *testing.M) { env.Main(m) }
