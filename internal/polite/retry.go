package polite

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gositemap/sitemap/internal/guard"
)

// The bounds of the retry policy.
const (
	// DefaultMaxWait is the longest wait before a retry when Retry sets
	// none: a Retry-After asking for longer ends the tries.
	DefaultMaxWait = 60 * time.Second
	// MaxRetries is the most retries a policy may ask for.
	MaxRetries = 100
	// Drain is how much of the body of a response to be retried is read,
	// so that its connection may serve the next try.
	Drain = 64 << 10
	// base is the first step of the backoff: the wait before try n (from
	// 1) is drawn between 0 and base × 2ⁿ⁻¹, capped.
	base = 500 * time.Millisecond
	// maxRetryAfter is where a Retry-After is cut, far beyond any cap, so
	// that a wait of ten years does not overflow a time.Duration.
	maxRetryAfter = 365 * 24 * time.Hour
)

// Retry is a retry policy: how many times a request is tried again, and
// the longest wait before a try (0 is DefaultMaxWait).
type Retry struct {
	Max     int
	MaxWait time.Duration
}

// Cap returns the longest wait of r.
func (r Retry) Cap() time.Duration {
	if r.MaxWait <= 0 {
		return DefaultMaxWait
	}
	return r.MaxWait
}

// Wait tells whether the outcome of try number try (from 1) is to be tried
// again, and after how long. A response has its status and the value of
// its Retry-After header; a request that failed before its response has
// err. now is the time the outcome came, which an HTTP date in Retry-After
// is read against; jitter draws the backoff in [0, n).
//
// Retried are 429, 502, 503 and 504, and the failures of Retriable. The
// wait is the Retry-After's, when it can be read, or a full-jitter backoff
// between 0 and 0.5 s × 2^(try-1), capped at r.Cap(). A Retry-After longer
// than the cap ends the tries.
func (r Retry) Wait(try, status int, retryAfter string, err error, now time.Time, jitter func(int64) int64) (time.Duration, bool) {
	if try > r.Max {
		return 0, false
	}
	if err != nil {
		return r.backoff(try, jitter), Retriable(err)
	}
	switch status {
	case 429, 502, 503, 504: // Too Many Requests, Bad Gateway, Service Unavailable, Gateway Timeout
	default:
		return 0, false
	}
	if d, ok := RetryAfter(retryAfter, now); ok {
		return d, d <= r.Cap()
	}
	return r.backoff(try, jitter), true
}

// backoff is the full-jitter wait before the retry after try.
func (r Retry) backoff(try int, jitter func(int64) int64) time.Duration {
	bound := r.Cap()
	if try < 40 {
		bound = min(bound, base<<(try-1))
	}
	return time.Duration(jitter(int64(bound) + 1))
}

// RetryAfter reads a Retry-After value: a number of seconds, or an HTTP
// date, from now. A date past is no wait, a wait beyond a year is a year;
// false when there is no value that can be read.
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
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

// Retriable reports whether a request that failed before its response may
// be tried again: the connection was reset or closed by the server, or the
// request timed out waiting for the response. The context's end, the
// guard, and every other failure are not.
func Retriable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, guard.ErrBlocked) {
		return false
	}
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
