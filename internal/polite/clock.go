// Package polite holds the engines of a call's politeness, which know
// nothing of sitemaps: the retry policy (what is tried again, Retry-After,
// backoff), the limits per host (requests in flight, pace, Crawl-delay),
// and the one reader of the groups of a robots.txt, which both the
// Crawl-delay and lint's robots.txt checks go through.
//
// Time is an argument: the engines are given the time it is and return
// how long to wait, as golang.org/x/time/rate's AllowN(t, n) is, so they
// are tested on a fixed clock. The waiting itself is the caller's, through
// a Clock.
package polite

import (
	"context"
	"math/rand/v2"
	"time"
)

// Clock is the time of the waits of a call: Real, or a test's.
type Clock interface {
	Now() time.Time
	// Sleep waits d, or until ctx ends: then it returns the context's
	// error.
	Sleep(ctx context.Context, d time.Duration) error
	// Jitter returns a random number in [0, n).
	Jitter(n int64) int64
}

// Real is the clock of the machine.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Jitter returns a random number in [0, n) of math/rand/v2.
func (Real) Jitter(n int64) int64 { return rand.Int64N(n) }

// Sleep waits d on a timer, or until ctx ends.
func (Real) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
