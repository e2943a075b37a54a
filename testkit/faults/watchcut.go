package faults

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/watch"
)

// cutBody returns body as it reads until after has passed, then closes it
// and reports a clean end of stream (io.EOF), which is what a watcher sees
// when the API server ends a watch: client-go's reflectors then watch again
// from the last resource version they processed. A partial event read at
// the cut is dropped, so no half event reaches the decoder.
func cutBody(body io.ReadCloser, after time.Duration) io.ReadCloser {
	b := &cut{body: body}
	b.timer = time.AfterFunc(after, func() {
		b.done.Store(true)
		_ = body.Close()
	})
	return b
}

type cut struct {
	body  io.ReadCloser
	timer *time.Timer
	done  atomic.Bool
}

func (b *cut) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if b.done.Load() {
		return 0, io.EOF
	}
	return n, err
}

func (b *cut) Close() error {
	b.timer.Stop()
	return b.body.Close()
}

// cutWatch stops w after after has passed: its result channel closes, as
// the channel of a watch whose stream ended does.
func cutWatch(w watch.Interface, after time.Duration) watch.Interface {
	c := &cutWatcher{Interface: w}
	c.timer = time.AfterFunc(after, c.stop)
	return c
}

type cutWatcher struct {
	watch.Interface
	timer *time.Timer
	once  sync.Once
}

// Stop stops the watch before its cut.
func (c *cutWatcher) Stop() {
	c.timer.Stop()
	c.stop()
}

func (c *cutWatcher) stop() { c.once.Do(c.Interface.Stop) }
