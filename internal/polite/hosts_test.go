package polite

import (
	"context"
	"net/url"
	"testing"
	"time"
)

// The limits per host, on a fixed clock: Reserve and CrawlDelay are given
// the time, and tell the wait.

// reserve takes a turn on h for key at t0+at and returns its wait.
func reserve(h *Hosts, key string, at time.Duration) time.Duration {
	d, _ := h.Reserve(key, t0.Add(at))
	return d
}

// With 2 requests a second, each request to a host after its first waits
// half a second from the last one's turn; each host has a pace of its own.
func TestPacePerHost(t *testing.T) {
	h := NewHosts(2, 0)
	half := 500 * time.Millisecond
	for i, want := range []time.Duration{0, half, 2 * half} {
		if d := reserve(h, "a.example", 0); d != want {
			t.Errorf("request %d to a at t0: wait %v, want %v", i+1, d, want)
		}
	}
	if d := reserve(h, "b.example", 0); d != 0 {
		t.Errorf("first request to b: wait %v", d)
	}
	// At t0+2s, a's turns are past: its next request goes at once.
	if d := reserve(h, "a.example", 2*time.Second); d != 0 {
		t.Errorf("a at t0+2s: wait %v", d)
	}
	if d := reserve(NewHosts(0, 0), "a.example", 0); d != 0 {
		t.Errorf("no pace: wait %v", d)
	}
}

// A turn given back is taken by the next request.
func TestPaceCancel(t *testing.T) {
	h := NewHosts(1, 0)
	reserve(h, "a", 0)
	d, cancel := h.Reserve("a", t0)
	if d != time.Second {
		t.Fatalf("second request waits %v, want 1s", d)
	}
	cancel(t0)
	if d := reserve(h, "a", 0); d != time.Second {
		t.Errorf("after the cancel: wait %v, want 1s, the turn given back", d)
	}
}

// The Crawl-delay of the groups of a robots.txt, read at t0: the request
// after it waits the delay; a group of the agent holds over one of *,
// whichever comes first; a slower host rate holds; the cap.
func TestCrawlDelayPace(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rate  float64
		notes []note
		want  time.Duration
	}{
		{"star", 0, notes(Star, 2), 2 * time.Second},
		{"named over star", 0, notes(Star, 2, Named, 3), 3 * time.Second},
		{"star after named is not heard", 0, notes(Named, 3, Star, 9), 3 * time.Second},
		{"named asking none over star", 0, notes(Star, 2, Named, 0), 0},
		{"capped", 0, notes(Named, 1e9), MaxCrawlDelay},
		{"slower rate holds", 0.1, notes(Named, 3), 10 * time.Second},
		{"faster rate gives way", 10, notes(Named, 3), 3 * time.Second},
		{"none", 0, notes(Named, 0), 0},
		{"rank none is not heard", 0, notes(None, 5), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHosts(tc.rate, 0)
			for _, n := range tc.notes {
				h.CrawlDelay("a", n.rank, n.secs, t0)
			}
			if tc.rate > 0 {
				// The robots.txt request itself took the rate's first turn.
				reserve(h, "a", 0)
				h.CrawlDelay("a", tc.notes[len(tc.notes)-1].rank, tc.notes[len(tc.notes)-1].secs, t0)
			}
			if d := reserve(h, "a", 0); d != tc.want {
				t.Errorf("wait %v, want %v", d, tc.want)
			}
			if d := reserve(h, "b", 0); d != 0 {
				t.Errorf("another host waits %v", d)
			}
		})
	}
}

// note is a Crawl-delay heard from a group of a rank.
type note struct {
	rank Rank
	secs float64
}

func notes(v ...any) []note {
	var out []note
	for i := 0; i < len(v); i += 2 {
		secs, ok := v[i+1].(float64)
		if !ok {
			secs = float64(v[i+1].(int))
		}
		out = append(out, note{v[i].(Rank), secs})
	}
	return out
}

// At most MaxConcurrency in flight to a host: the next waits, through the
// wait it is given, for a place given back; a wait ends with its context.
func TestInFlight(t *testing.T) {
	h := NewHosts(0, 1)
	direct := func(w func() error) error { return w() }
	release, err := h.Acquire(context.Background(), "a", direct)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Acquire(context.Background(), "b", direct); err != nil {
		t.Errorf("another host: %v", err)
	}
	waited := false
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = h.Acquire(ctx, "a", func(w func() error) error { waited = true; return w() })
	if !waited || err != context.Canceled {
		t.Errorf("a full host: waited %v, error %v; want a wait ended by the context", waited, err)
	}
	release()
	waited = false
	release, err = h.Acquire(context.Background(), "a", func(w func() error) error { waited = true; return w() })
	if err != nil || waited {
		t.Errorf("after the release: error %v, waited %v; want a place at once", err, waited)
	}
	release()
	if r, err := NewHosts(0, 0).Acquire(ctx, "a", direct); err != nil || r == nil {
		t.Errorf("no limit: %v", err)
	}
}

func TestHostKey(t *testing.T) {
	u, _ := url.Parse("https://User@Example.COM:8443/x")
	if k := HostKey(u); k != "example.com:8443" {
		t.Errorf("HostKey = %q", k)
	}
}
