package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gositemap/sitemap/internal/serverclock"
)

// The fetch timeout of the command's requests. The command hands the
// library a client of its own (to count the documents fetched, and to
// read a file's directory), which the library uses as it is; a client's
// Timeout would cover the whole body, and the command reads a body only as
// fast as it writes the URLs out. The timeout is in the transport
// instead, charged as the library charges its own client's in a
// streaming call: to the waits for the server alone, added up.

// timeoutUnit is what one unit of -timeout is worth: a second, or in the
// tests a millisecond, so that they wait out no real timeout.
var timeoutUnit = time.Second

// newTransport returns the transport of the requests of a run: the base
// transport (net/http's, or with -block-private the guarded one), each
// request charged timeout units of -timeout, the documents fetched counted
// in c.docs.
func (c *command) newTransport(blockPrivate bool, timeout seconds) *countingTransport {
	timed := &serverTimeout{base: c.baseTransport(blockPrivate), timeout: time.Duration(timeout) * timeoutUnit}
	return &countingTransport{base: timed, n: &c.docs}
}

// serverTimeout cuts a request once it has waited timeout in all for its
// server: for the response, then inside each read of the body (see
// package serverclock). A redirect goes on with the time its first
// request has left. A request that runs out fails with the error
// timedOut makes, as the library's own client fails one.
type serverTimeout struct {
	base    http.RoundTripper
	timeout time.Duration
}

// timedOut is the error of a request that waited the timeout for its
// server, in its response or in the reads of its body: it says so in the
// words of the library's own client, and is a context.DeadlineExceeded,
// which -retries takes as a timeout.
func timedOut(timeout time.Duration) error {
	return fmt.Errorf("the server took longer than the -timeout of %v: %w", timeout, context.DeadlineExceeded)
}

func (t *serverTimeout) RoundTrip(req *http.Request) (*http.Response, error) {
	var ctx context.Context
	var clock *serverclock.Clock
	var prev *timedBody
	if req.Response != nil {
		prev, _ = req.Response.Body.(*timedBody) // the response that redirected here
	}
	if prev != nil {
		ctx, clock = prev.clock.Next(req.Context())
	} else {
		ctx, clock = serverclock.Start(req.Context(), t.timeout)
	}
	clock.Run()
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	clock.Pause()
	if err != nil {
		clock.End()
		if clock.Expired() {
			return nil, timedOut(t.timeout)
		}
		return nil, err
	}
	resp.Body = &timedBody{rc: resp.Body, clock: clock}
	return resp, nil
}

// timedBody is a response body read on its request's clock.
type timedBody struct {
	rc    io.ReadCloser
	clock *serverclock.Clock
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.clock.Read(b.rc, p)
	if err != nil && err != io.EOF && b.clock.Expired() {
		err = timedOut(b.clock.Timeout())
	}
	return n, err
}

func (b *timedBody) Close() error {
	err := b.rc.Close()
	b.clock.End()
	return err
}
