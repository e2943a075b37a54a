package component

import (
	"math/rand/v2"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// backoffBase is the first delay of a backoff.
const backoffBase = time.Second

// backoff spaces the passes of a component that waits (for readiness,
// for a deletion) or fails without a delay of its own: one second, then
// doubling up to a cap, each delay jittered by ±10% so that components
// that failed together do not retry together.
type backoff struct {
	mu       sync.Mutex
	cap      time.Duration
	attempts map[types.NamespacedName]int
}

func newBackoff(limit time.Duration) *backoff {
	return &backoff{cap: max(limit, backoffBase), attempts: map[types.NamespacedName]int{}}
}

// next returns the next delay for key, at most limit (the cap when limit
// is zero).
func (b *backoff) next(key types.NamespacedName, limit time.Duration) time.Duration {
	b.mu.Lock()
	n := b.attempts[key]
	b.attempts[key] = n + 1
	b.mu.Unlock()
	if limit <= 0 || limit > b.cap {
		limit = b.cap
	}
	d := backoffBase << min(n, 30)
	if d <= 0 || d > limit {
		d = limit
	}
	return jitter(d, 0.1)
}

// reset starts key's backoff over.
func (b *backoff) reset(key types.NamespacedName) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.attempts, key)
}

// jitter returns d changed by a random fraction in [-f, f].
func jitter(d time.Duration, f float64) time.Duration {
	return time.Duration(float64(d) * (1 + f*(2*rand.Float64()-1)))
}
