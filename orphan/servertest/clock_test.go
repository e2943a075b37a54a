package servertest_test

import (
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

func newFakeClock() *clocktesting.FakeClock {
	return clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
}
