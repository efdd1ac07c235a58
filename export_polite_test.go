package sitemap

import (
	"context"
	"net/netip"
	"time"
)

// The hooks of the tests of retries, host limits and the guard.

// SetGuardAllowForTest lets the guard of s through to the addresses allow
// accepts: a test's way to have a loopback server stand for a public host.
func SetGuardAllowForTest(s *S, allow func(netip.AddrPort) bool) {
	s.set("test.allow", func() error { return nil }, func(c *config) { c.polite.allow = allow })
}

// TestClock stands for the time of the waits of a call: Now, Sleep and
// Jitter replace the clock's, those left nil are the real ones.
type TestClock struct {
	Now    func() time.Time
	Sleep  func(ctx context.Context, d time.Duration) error
	Jitter func(n int64) int64
}

func (k *TestClock) now() time.Time {
	if k.Now == nil {
		return time.Now()
	}
	return k.Now()
}

func (k *TestClock) sleep(ctx context.Context, d time.Duration) error {
	if k.Sleep == nil {
		return realClock{}.sleep(ctx, d)
	}
	return k.Sleep(ctx, d)
}

func (k *TestClock) jitter(n int64) int64 {
	if k.Jitter == nil {
		return realClock{}.jitter(n)
	}
	return k.Jitter(n)
}

// SetClockForTest makes the waits of the calls of s for retries and host
// limits run on k.
func SetClockForTest(s *S, k *TestClock) {
	s.set("test.clock", func() error { return nil }, func(c *config) { c.polite.clock = k })
}

// RealSleep is the real clock's sleep.
func RealSleep(ctx context.Context, d time.Duration) error { return realClock{}.sleep(ctx, d) }
