package sitemap

import (
	"context"
	"net/netip"
	"time"

	"github.com/gositemap/sitemap/internal/polite"
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

// testClock is a TestClock as the polite.Clock of a call.
type testClock struct{ k *TestClock }

func (c testClock) Now() time.Time {
	if c.k.Now == nil {
		return time.Now()
	}
	return c.k.Now()
}

func (c testClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.k.Sleep == nil {
		return polite.Real{}.Sleep(ctx, d)
	}
	return c.k.Sleep(ctx, d)
}

func (c testClock) Jitter(n int64) int64 {
	if c.k.Jitter == nil {
		return polite.Real{}.Jitter(n)
	}
	return c.k.Jitter(n)
}

// SetClockForTest makes the waits of the calls of s for retries and host
// limits run on k.
func SetClockForTest(s *S, k *TestClock) {
	s.set("test.clock", func() error { return nil }, func(c *config) { c.polite.clock = testClock{k} })
}

// RealSleep is the real clock's sleep.
func RealSleep(ctx context.Context, d time.Duration) error { return polite.Real{}.Sleep(ctx, d) }
