package sitemap

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/polite"
)

// This file is the root's side of the retry policy of Politeness.Retry:
// the call's use of the engine of internal/polite, which
// tells which failures are tried again and how long to wait before.

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
