package crash

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// Operator runs an operator against the API server cfg reaches until ctx
// ends, typically by building a controller-runtime manager from cfg and
// starting it. It must build everything it keeps (clients, caches, the
// reconciler) from cfg on each call: a run after a kill starts from
// nothing, as a new process does.
type Operator func(ctx context.Context, cfg *rest.Config) error

// Options configures a Harness.
type Options struct {
	// Config reaches the API server. Each run gets a copy whose transport
	// the harness wraps (after any wrapping Config already has, so a fault
	// injector or a request counter in Config sees the run's requests).
	// Required.
	Config *rest.Config
	// Operator is what each run starts. Required.
	Operator Operator
	// Counts says which requests count as writes. Nil means DefaultCounts:
	// every write except those to events and leases.
	Counts func(verb, resource string) bool
	// StopTimeout bounds how long an operator may take to return once its
	// run is stopped or killed. Zero means 30 seconds.
	StopTimeout time.Duration
	// Now tells the time of each write. Nil means time.Now.
	Now func() time.Time
	// Restart starts the operator again, after RestartDelay, when it
	// returns on its own (neither stopped nor killed), as the kubelet
	// restarts an operator's container that exited: an operator that
	// fails to start while the API server errs is then tried again.
	// Run.Exits lists what each incarnation returned. False means a run
	// ends when its operator returns.
	Restart bool
	// RestartDelay is the wait before a restart. Zero means one second.
	RestartDelay time.Duration
}

// DefaultStopTimeout is the default of Options.StopTimeout.
const DefaultStopTimeout = 30 * time.Second

// Harness starts runs of one operator.
type Harness struct {
	opts Options
}

// New checks opts and returns a Harness.
func New(opts Options) (*Harness, error) {
	var errs []error
	if opts.Config == nil {
		errs = append(errs, errors.New("crash.Options.Config is required"))
	}
	if opts.Operator == nil {
		errs = append(errs, errors.New("crash.Options.Operator is required"))
	}
	if opts.RestartDelay < 0 {
		errs = append(errs, fmt.Errorf("crash.Options.RestartDelay %s is negative", opts.RestartDelay))
	}
	if opts.StopTimeout < 0 {
		errs = append(errs, fmt.Errorf("crash.Options.StopTimeout %s is negative", opts.StopTimeout))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if opts.Counts == nil {
		opts.Counts = DefaultCounts
	}
	if opts.StopTimeout == 0 {
		opts.StopTimeout = DefaultStopTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RestartDelay == 0 {
		opts.RestartDelay = time.Second
	}
	return &Harness{opts: opts}, nil
}

// Run is one running operator.
type Run struct {
	cut     *cutoff
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
	timeout time.Duration
	stop    sync.Once
	stopErr error

	mu    sync.Mutex
	exits []error
}

// Start starts a run of the operator. With killAfter > 0 the run dies as
// its killAfter-th counted write goes out: the write reaches the API
// server, its response is lost, every later request of the run fails with
// ErrKilled and its open streams (watches) end. The run's context is then
// cancelled. With killAfter 0 it runs until Stop or Kill.
func (h *Harness) Start(killAfter int) *Run {
	cut := newCutoff(killAfter, h.opts.Counts, h.opts.Now)
	cfg := rest.CopyConfig(h.opts.Config)
	cfg.Wrap(cut.wrap)
	ctx, cancel := context.WithCancel(context.Background())
	r := &Run{cut: cut, cancel: cancel, done: make(chan struct{}), timeout: h.opts.StopTimeout}
	go func() {
		defer close(r.done)
		for {
			r.err = h.opts.Operator(ctx, cfg)
			if !h.opts.Restart || ctx.Err() != nil || cut.isDead() {
				return
			}
			r.mu.Lock()
			r.exits = append(r.exits, r.err)
			r.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-time.After(h.opts.RestartDelay):
			}
		}
	}()
	go func() {
		select {
		case <-cut.killed:
			cancel()
		case <-r.done:
		}
	}()
	return r
}

// Killed is closed when the run dies: at its kill write or at Kill.
func (r *Run) Killed() <-chan struct{} { return r.cut.killed }

// Exited is closed when the operator has returned.
func (r *Run) Exited() <-chan struct{} { return r.done }

// Kill kills the run now, as the kill write would, and waits for the
// operator to return. It returns an error only when the operator does not
// return within the stop timeout (its goroutines would outlive the test).
func (r *Run) Kill() error {
	r.cut.kill()
	return r.Stop()
}

// Stop cancels the run's context and waits for the operator to return. It
// returns the operator's error (none when the run was killed: a killed
// operator's errors are the kill's), or an error when the operator does
// not return within the stop timeout.
func (r *Run) Stop() error {
	r.stop.Do(func() {
		r.cancel()
		select {
		case <-r.done:
		case <-time.After(r.timeout):
			r.stopErr = fmt.Errorf("crash: the operator did not return within %s of its stop", r.timeout)
			return
		}
		if !r.cut.isDead() && r.err != nil && !errors.Is(r.err, context.Canceled) {
			r.stopErr = r.err
		}
	})
	return r.stopErr
}

// Writes returns the run's counted writes so far, in the order they went
// out.
func (r *Run) Writes() []Write { return r.cut.recorded() }

// Exits returns what the operator returned each time it exited on its
// own and was restarted (Options.Restart), in order.
func (r *Run) Exits() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.exits)
}

// WasKilled reports whether the run died (at its kill write or by Kill).
func (r *Run) WasKilled() bool { return r.cut.isDead() }
