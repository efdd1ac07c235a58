package sitemap

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/polite"
)

// This file is the root's side of the retry policy of SetRetries: its
// settings, and the call's use of the engine of internal/polite, which
// tells which failures are tried again and how long to wait before.

// DefaultRetryMaxWait is the longest wait before a retry unless
// [S.SetRetryMaxWait] sets another: a Retry-After asking for longer ends
// the tries.
const DefaultRetryMaxWait = polite.DefaultMaxWait

// SetRetries sets how many times a request is tried again after a failure
// that may pass: a 429 Too Many Requests, 502 Bad Gateway, 503 Service
// Unavailable or 504 Gateway Timeout, a connection reset or closed before
// the response, and a timeout before the response began. The default is 0:
// no retry, as the spec has it; values from 0 to 100 are accepted, others
// are rejected with a *ConfigError.
//
// The wait before a retry is the one the response's Retry-After asks for
// (a number of seconds or an HTTP date), or else drawn at random between 0
// and an exponential bound (0.5 s, 1 s, 2 s, ...), capped at the wait set
// with [S.SetRetryMaxWait]. A Retry-After longer than that cap ends the
// tries: the request is not sent again before the server asked. Nothing
// else is retried: no other status, and no failure once the body has begun
// to be read, so that no URL is handed on twice. A wait holds none of the
// call's slots of [S.SetMaxConcurrency], and ends at once when the call's
// context ends. When the last try fails, the *NetworkError is that of the
// last response, or of the last failure. Each try has the whole fetch
// timeout, in a call of [S.Stream] too.
func (s *S) SetRetries(n int) *S {
	return s.set("retries", func() error {
		if n < 0 || n > polite.MaxRetries {
			return fmt.Errorf("retries must be from 0 to %d, got %d", polite.MaxRetries, n)
		}
		return nil
	}, func(c *config) { c.polite.retries = n })
}

// GetRetries returns how many times a failed request is tried again.
func (s *S) GetRetries() int { return get(s, func(c *config) int { return c.polite.retries }) }

// SetRetryMaxWait sets the longest wait before a retry of [S.SetRetries];
// the default is [DefaultRetryMaxWait]. A value of 0 or below is rejected
// with a *ConfigError.
func (s *S) SetRetryMaxWait(d time.Duration) *S {
	return s.set("retryMaxWait", func() error {
		if d <= 0 {
			return fmt.Errorf("retry max wait must be greater than 0, got %v", d)
		}
		return nil
	}, func(c *config) { c.polite.retryMaxWait = d })
}

// GetRetryMaxWait returns the longest wait before a retry.
func (s *S) GetRetryMaxWait() time.Duration {
	return get(s, func(c *config) time.Duration { return c.polite.maxWait() })
}

func (p *politeConfig) maxWait() time.Duration { return p.retryPolicy().Cap() }

func (p *politeConfig) retryPolicy() polite.Retry {
	return polite.Retry{Max: p.retries, MaxWait: p.retryMaxWait}
}

// retryWait tells whether the outcome of try number try is to be tried
// again, and after how long: never once the call's context has ended.
// A response has its status and its Retry-After header; a request that
// failed before its response has err.
func (p *politeState) retryWait(ctx context.Context, try, status int, after string, err error) (time.Duration, bool) {
	if ctx.Err() != nil {
		return 0, false
	}
	return p.retry.Wait(try, status, after, err, p.clock.Now(), p.clock.Jitter)
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
