package fleet

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A worker's own client charges the crawl's timeout to the waits for the
// server alone: a body read slower than the timeout, at the pace of the
// output's publishing, is read whole, where a client's Timeout cut it;
// a server that stalls mid-body is still cut, with the library's words.
func TestOwnClientChargesTheServer(t *testing.T) {
	const timeout = 50 * time.Millisecond
	stalled := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 100))
		w.(http.Flusher).Flush()
		if r.URL.Path == "/stall" {
			select { // until the client gives up, or the test ends
			case <-r.Context().Done():
			case <-stalled:
			}
			return
		}
		io.WriteString(w, strings.Repeat("y", 100))
	}))
	defer srv.Close()
	defer close(stalled)
	c := ownClient(2, timeout)
	if c.Timeout != 0 {
		t.Fatalf("client Timeout %v, want 0: it would cover the reading of the body", c.Timeout)
	}

	// The reader waits three timeouts between two reads of a whole body.
	resp, err := c.Get(srv.URL + "/slow-reader")
	if err != nil {
		t.Fatal(err)
	}
	first := make([]byte, 100)
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(context.Background(), 3*timeout)
	<-wait.Done() // the consumer's time, not the server's
	cancel()
	rest, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(rest) != 100 {
		t.Errorf("after a slow reader: %d bytes, %v; want the other 100", len(rest), err)
	}

	// The server stalls after 100 bytes: the read waits the timeout.
	resp, err = c.Get(srv.URL + "/stall")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "the server took longer than the fetch timeout of 50ms") {
		t.Errorf("a stalled body: %v, want the timeout", err)
	}
}
