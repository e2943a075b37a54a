package reconciler

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// statusPace spaces the status writes that report nothing but a
// rollout's progress (a message counting ready replicas, an object found
// ready): each would be a request, and its watch event another pass.
// While the resource converges the first such change is written two
// intervals after the resource's last status write, and each next one
// waits twice as long as the one before, up to 2^maxPaceShift intervals:
// a rollout shorter than that reports its progress once at most (its
// writes are then the objects' record, the one progress report and the
// settled state), a long one still every few intervals. A settled pass
// writes at once, and so is anything else (a condition's status or
// reason, what the inventory records of a write, the observed
// generation, the product's own fields), which brings the progress along
// and starts the spacing again from two intervals.
//
// Beside each resource's spacing, the progress-only writes of all the
// resources share one budget (a token bucket of one write per
// Config.ProgressWriteEvery): when many resources roll out at once, each
// reports its progress less often instead of the reconciler writing more
// in all. A write the budget refuses waits for the resource's next pass;
// it brings no earlier pass of its own.
type statusPace struct {
	mu     sync.Mutex
	last   map[types.NamespacedName]paced
	budget *rate.Limiter
}

// paced is what the pace remembers of one resource: its last status
// write and how many progress-only writes came in a row before it.
type paced struct {
	at   time.Time
	step uint
}

// maxPaceShift bounds the spacing of progress-only writes at 2^3 = 8
// intervals.
const maxPaceShift = 3

// newStatusPace returns a pace whose shared budget allows one
// progress-only write per every.
func newStatusPace(every time.Duration) *statusPace {
	return &statusPace{last: map[types.NamespacedName]paced{}, budget: rate.NewLimiter(rate.Every(every), 1)}
}

// hold says whether a progress-only status write of key at now must wait,
// and how long when the resource's own spacing is what holds it: until
// the last write of key by this process is its spacing (two intervals,
// doubled per progress-only write in a row, eight at most) old. A write
// the spacing allows takes its place in the shared budget; when the
// budget has none left, hold answers true with zero: the write waits for
// the resource's next pass. The budget is only spent by a write hold
// lets through, so callers ask only for a write they will make.
func (s *statusPace) hold(key types.NamespacedName, now time.Time, interval time.Duration) (bool, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if last, ok := s.last[key]; ok {
		if wait := interval<<min(last.step+1, maxPaceShift) - now.Sub(last.at); wait > 0 {
			return true, wait
		}
	}
	return !s.budget.AllowN(now, 1), 0
}

// wrote notes a status write of key at now; progress says it reported
// nothing but progress, which doubles the spacing before the next such
// write, while any other write starts it again from two intervals.
func (s *statusPace) wrote(key types.NamespacedName, now time.Time, progress bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.last[key]
	e.at = now
	if progress {
		e.step = min(e.step+1, maxPaceShift)
	} else {
		e.step = 0
	}
	s.last[key] = e
}

// forget drops key, gone.
func (s *statusPace) forget(key types.NamespacedName) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.last, key)
}

// progressOnly reports whether cr differs from orig in nothing but
// progress: the messages of the Available and Progressing conditions
// (which count ready replicas) when their status, reason and observed
// generation are equal, and the readiness inventory items observed (their kstatus status, and a phase among Creating, Updating
// and Ready, which moves as the object becomes ready).
func progressOnly[CR Object[CR]](orig, cr CR) bool {
	a, b := orig.DeepCopy(), cr.DeepCopy()
	withoutProgress(a.GetClusterStatus())
	withoutProgress(b.GetClusterStatus())
	return equality.Semantic.DeepEqual(a, b)
}

func withoutProgress(st *commonsv1alpha1.ClusterStatus) {
	for i, c := range st.Conditions {
		if c.Type == commonsv1alpha1.ConditionAvailable || c.Type == commonsv1alpha1.ConditionProgressing {
			st.Conditions[i].Message = ""
		}
	}
	for _, inv := range inventories(st) {
		withoutReadiness(inv)
	}
}

func withoutReadiness(inv *inventory.Inventory) {
	for i := range inv.Items {
		it := &inv.Items[i]
		it.Status = ""
		switch it.EffectivePhase() {
		case inventory.PhaseCreating, inventory.PhaseUpdating, inventory.PhaseReady:
			it.Phase = inventory.PhaseReady
		}
	}
}
