package sitemap

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// This file is the retry policy of Politeness.Retry: which failures of a
// request are tried again, and how long to wait before the next try.

// The defaults of the retry policy.
const (
	// DefaultRetryMaxWait is the longest wait before a retry unless
	// [Retry.MaxWait] sets another: a Retry-After asking for longer ends
	// the tries.
	DefaultRetryMaxWait = 60 * time.Second
	// retryBase is the first step of the backoff: the wait before try n
	// (from 1) is drawn between 0 and retryBase × 2ⁿ⁻¹, capped.
	retryBase = 500 * time.Millisecond
	// maxRetries bounds Retry.Max.
	maxRetries = 100
	// retryDrain is how much of the body of a response to be retried is
	// read, so that its connection may serve the next try.
	retryDrain = 64 << 10
)

func (p *politeConfig) maxWait() time.Duration {
	if p.retryMaxWait <= 0 {
		return DefaultRetryMaxWait
	}
	return p.retryMaxWait
}

// retryWait tells whether the outcome of try number try is to be tried
// again, and after how long.
// A response has its status and its Retry-After header; a request that
// failed before its response has err.
func (p *politeState) retryWait(ctx context.Context, try, status int, after string, err error) (time.Duration, bool) {
	if try > p.cfg.retries || ctx.Err() != nil {
		return 0, false
	}
	if err != nil {
		return p.backoff(try), retriableError(err)
	}
	switch status {
	case 429, 502, 503, 504: // Too Many Requests, Bad Gateway, Service Unavailable, Gateway Timeout
	default:
		return 0, false
	}
	if d, ok := retryAfter(after, p.clock.now()); ok {
		return d, d <= p.cfg.maxWait()
	}
	return p.backoff(try), true
}

// backoff is the full-jitter wait before the retry after try: drawn
// between 0 and retryBase × 2^(try-1), capped at the max wait.
func (p *politeState) backoff(try int) time.Duration {
	bound := p.cfg.maxWait()
	if try < 40 {
		bound = min(bound, retryBase<<(try-1))
	}
	return time.Duration(p.clock.jitter(int64(bound) + 1))
}

// retryAfter reads a Retry-After header: a number of seconds, or an HTTP
// date, from now. A date past is no wait; false when there is no value
// that can be read.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" {
		secs, err := strconv.ParseUint(v, 10, 64)
		if err != nil || secs > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true // too many digits for a uint64 too
		}
		return time.Duration(secs) * time.Second, true
	}
	for _, layout := range httpDates {
		if t, err := time.Parse(layout, v); err == nil {
			return min(max(t.Sub(now), 0), maxRetryAfter), true
		}
	}
	return 0, false
}

// httpDates are the forms of an HTTP date (RFC 9110, 5.6.7): IMF-fixdate,
// and the obsolete RFC 850 and asctime forms.
var httpDates = []string{"Mon, 02 Jan 2006 15:04:05 GMT", "Monday, 02-Jan-06 15:04:05 GMT", "Mon Jan _2 15:04:05 2006"}

// maxRetryAfter is where a Retry-After is cut, far beyond any cap, so that
// a wait of ten years does not overflow a time.Duration.
const maxRetryAfter = 365 * 24 * time.Hour

// retriableError reports whether a request that failed before its response
// may be tried again: the connection was reset or closed by the server, or
// the request timed out waiting for the response. The context's end, the
// guard, and every other failure are not.
func retriableError(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, ErrBlockedAddress) {
		return false
	}
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// clock is the time of the waits of a call: the real one, or the tests'.
type clock interface {
	now() time.Time
	// sleep waits d, or until ctx ends: then it returns the context's
	// error.
	sleep(ctx context.Context, d time.Duration) error
	// jitter returns a random number in [0, n).
	jitter(n int64) int64
}

type realClock struct{}

func (realClock) now() time.Time       { return time.Now() }
func (realClock) jitter(n int64) int64 { return rand.Int64N(n) }

func (realClock) sleep(ctx context.Context, d time.Duration) error {
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

// releasingBody is a response body that gives back the request's place in
// the limits of its host when it is closed.
type releasingBody struct {
	io.ReadCloser
	release func()
	once    sync.Once
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}
