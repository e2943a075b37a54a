package builders_test

import (
	"testing"

	"github.com/opkit-dev/opkit/testkit"
)

// env is the control plane the tests that need a real API server share.
var env = &testkit.Env{}

func TestMain(m *testing.M) { env.Main(m) }
