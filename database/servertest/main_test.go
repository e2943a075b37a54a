package servertest_test

import (
	"testing"

	"github.com/opkit-dev/opkit/testkit"
)

// env is an API server alone: admission (Pod Security included) is all
// these tests need.
var env = &testkit.Env{}

func TestMain(m *testing.M) { env.Main(m) }
