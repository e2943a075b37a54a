package reconciler

import (
	"testing"
	"time"

	"github.com/go-logr/logr"
)

// An unsettled pass comes back after the progress interval, or, when it
// waits only for StatefulSets rolling out, when their pods are next
// looked at: the soonest of them, never sooner than the interval.
func TestUnsettledPassLooksAgainWhenThereIsSomethingToSee(t *testing.T) {
	const interval = 10 * time.Second
	for _, tc := range []struct {
		name  string
		steps func(p *pass)
		want  time.Duration
	}{
		{"a wave waits", func(p *pass) { p.unsettle() }, interval},
		{"one group rolls out, its pods next in 40 s", func(p *pass) { p.rolling(40 * time.Second) }, 40 * time.Second},
		{"two groups roll out", func(p *pass) { p.rolling(40 * time.Second); p.rolling(20 * time.Second) }, 20 * time.Second},
		{"a group rolls out, a wave waits", func(p *pass) { p.rolling(40 * time.Second); p.unsettle() }, interval},
		{"a wave waits, a group rolls out", func(p *pass) { p.unsettle(); p.rolling(40 * time.Second) }, interval},
		{"a group's pods are due now", func(p *pass) { p.rolling(0) }, interval},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPass(logr.Discard(), time.Now())
			tc.steps(p)
			if p.settled {
				t.Fatal("the pass is settled")
			}
			if got := p.lookAgain(interval); got != tc.want {
				t.Errorf("looks again after %s, want %s", got, tc.want)
			}
		})
	}
}
