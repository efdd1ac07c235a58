// Package serverclock is the fetch timeout of a request whose body is read
// at its reader's pace: a clock that runs only while the request waits for
// its server (for the response, then inside each read of the body), and
// that cancels the request once those waits add up to the timeout. The time
// between two reads is the reader's and costs nothing, so a slow consumer
// is never cut, while a server that stalls, or sends a byte at a time, is.
//
// The library's own client times a streaming call with it around the
// whole request; the command sitemap times each request of its transport.
package serverclock

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Clock is the timeout of one request. A nil *Clock does nothing: the
// request is timed otherwise, or not at all.
type Clock struct {
	mu      sync.Mutex // the body is closed while a read may be waiting
	left    time.Duration
	since   time.Time // when it was last set running
	timer   *time.Timer
	cancel  context.CancelFunc
	expired atomic.Bool
	timeout time.Duration
}

// Start returns a clock of timeout, stopped, and the context of the
// request it times, which it cancels when the waits reach the timeout.
func Start(ctx context.Context, timeout time.Duration) (context.Context, *Clock) {
	return start(ctx, timeout, timeout)
}

// Next returns the clock of the request that follows k's, a redirect: it
// has the time k has left, so that the waits of every request of a chain
// add up to one timeout.
func (k *Clock) Next(ctx context.Context) (context.Context, *Clock) {
	k.mu.Lock()
	left := k.left
	k.mu.Unlock()
	return start(ctx, k.timeout, left)
}

func start(ctx context.Context, timeout, left time.Duration) (context.Context, *Clock) {
	ctx, cancel := context.WithCancel(ctx)
	k := &Clock{left: left, cancel: cancel, timeout: timeout}
	k.timer = time.AfterFunc(left, func() {
		k.expired.Store(true)
		cancel()
	})
	k.timer.Stop()
	return ctx, k
}

// Run sets the clock running: the request waits for the server.
func (k *Clock) Run() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.since = time.Now()
	k.timer.Reset(k.left)
}

// Pause stops the clock: the server has answered, and what happens until
// the next Run is not the server's time.
func (k *Clock) Pause() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.timer.Stop() {
		k.left -= time.Since(k.since)
	}
}

// Read reads r, a body of the request, with the clock running.
func (k *Clock) Read(r io.Reader, p []byte) (int, error) {
	k.Run()
	n, err := r.Read(p)
	k.Pause()
	return n, err
}

// End stops the clock for good and releases the request's context.
func (k *Clock) End() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.timer.Stop()
	k.cancel()
}

// Expired reports whether the clock ran out, and so cancelled the
// request: an error of the request is then the timeout's.
func (k *Clock) Expired() bool { return k != nil && k.expired.Load() }

// Timeout is the timeout the clock was started with.
func (k *Clock) Timeout() time.Duration { return k.timeout }
