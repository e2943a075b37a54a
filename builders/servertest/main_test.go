package servertest

import (
	"testing"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// env is the control plane the tests share; its controllers and fake nodes
// let a StatefulSet really get pods.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true}}

func TestMain(m *testing.M) { env.Main(m) }
