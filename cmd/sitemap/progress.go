package main

import (
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/gositemap/sitemap"
)

// The progress line of the command on a terminal, and the count of the
// documents fetched that it shows.

// startProgress draws the progress line on stderr, redrawn in place until
// the function it returns is called, which clears it. It draws nothing when
// stderr is not a terminal.
func (c *command) startProgress(s *sitemap.S) (stop func()) {
	if !c.progress {
		return func() {}
	}
	draw := func() { c.con.draw(c.progressLine(s)) }
	draw()
	stopTicker := ticker(progressInterval, draw)
	return func() {
		stopTicker()
		c.con.mu.Lock()
		c.con.clearLocked()
		c.con.mu.Unlock()
	}
}

// progressLine is the text of the progress line: the documents of the
// call done, being read and waiting for their turn, and the URLs found.
func (c *command) progressLine(s *sitemap.S) string {
	var done, reading, waiting int64
	for _, d := range s.GetDocuments() {
		switch d.Status {
		case sitemap.StatusQueued:
			waiting++
		case sitemap.StatusReading:
			reading++
		default:
			done++
		}
	}
	return fmt.Sprintf("%s done, %d reading, %d waiting, %s found",
		count(done, "document"), reading, waiting, count(c.urls.Load(), "URL"))
}

// countingTransport counts the responses with status 200 OK: the documents
// fetched. Redirects and failed requests are not documents.
type countingTransport struct {
	base http.RoundTripper
	n    *atomic.Int64
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusOK {
		t.n.Add(1)
	}
	return resp, err
}
