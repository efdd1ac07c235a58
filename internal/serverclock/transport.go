package serverclock

import (
	"context"
	"io"
	"net/http"
	"time"
)

// Transport times each request it sends to Base with a Clock of Timeout:
// a request that waits its server Timeout in all, for the response and in
// the reads of its body, fails with the error of Expired. A redirect goes
// on with the time the request before it has left. It is for a client
// with no Timeout of its own, whose bodies are read at their reader's
// pace: the command sitemap's, and a fleet worker's.
type Transport struct {
	Base    http.RoundTripper
	Timeout time.Duration
	// Expired is the error of a request that ran out of time, given the
	// timeout; it should wrap context.DeadlineExceeded, which retries
	// take as a timeout.
	Expired func(timeout time.Duration) error
}

// RoundTrip sends req to t.Base on its clock.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var ctx context.Context
	var clock *Clock
	var prev *timedBody
	if req.Response != nil {
		prev, _ = req.Response.Body.(*timedBody) // the response that redirected here
	}
	if prev != nil {
		ctx, clock = prev.clock.Next(req.Context())
	} else {
		ctx, clock = Start(req.Context(), t.Timeout)
	}
	clock.Run()
	resp, err := t.Base.RoundTrip(req.WithContext(ctx))
	clock.Pause()
	if err != nil {
		clock.End()
		if clock.Expired() {
			return nil, t.Expired(t.Timeout)
		}
		return nil, err
	}
	resp.Body = &timedBody{rc: resp.Body, clock: clock, expired: t.Expired}
	return resp, nil
}

// timedBody is a response body read on its request's clock.
type timedBody struct {
	rc      io.ReadCloser
	clock   *Clock
	expired func(time.Duration) error
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.clock.Read(b.rc, p)
	if err != nil && err != io.EOF && b.clock.Expired() {
		err = b.expired(b.clock.Timeout())
	}
	return n, err
}

func (b *timedBody) Close() error {
	err := b.rc.Close()
	b.clock.End()
	return err
}
