package main

import (
	"context"
	"fmt"
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
	timed := &serverclock.Transport{Base: c.baseTransport(blockPrivate), Timeout: time.Duration(timeout) * timeoutUnit, Expired: timedOut}
	return &countingTransport{base: timed, n: &c.docs}
}

// timedOut is the error of a request that waited the timeout for its
// server, in its response or in the reads of its body: it says so in the
// words of the library's own client, and is a context.DeadlineExceeded,
// which -retries takes as a timeout.
func timedOut(timeout time.Duration) error {
	return fmt.Errorf("the server took longer than the -timeout of %v: %w", timeout, context.DeadlineExceeded)
}
