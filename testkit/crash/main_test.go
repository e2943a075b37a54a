package crash_test

import (
	"testing"

	"github.com/opkit-dev/opkit/testkit"
)

var env = &testkit.Env{}

func TestMain(m *testing.M) { env.Main(m) }
