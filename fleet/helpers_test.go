package fleet

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/nats-io/nats.go"
)

// testAckWait is the AckWait of the tests: a job of a worker that died is
// delivered again this soon.
const testAckWait = 2 * time.Second

// site is a loopback site shaped as W3's: an index of n sitemaps of m URLs
// each. It counts the requests in flight and when each began.
type site struct {
	*httptest.Server
	n, m  int
	gate  chan struct{} // when not nil, a sitemap past half waits for it to close
	delay time.Duration // the latency of each response

	inFlight, maxInFlight atomic.Int64
	requests              atomic.Int64
	reached               chan struct{} // closed when a request waits at the gate
	atGate                atomic.Int64
	full                  chan struct{} // closed when fullAt requests wait at the gate
	fullAt                int64
	fullOnce              sync.Once
	reachedOnce           sync.Once
	mu                    sync.Mutex
	starts                []time.Time
	robots                atomic.Pointer[string] // the body of /robots.txt, when set
}

func newSite(t testing.TB, n, m int, gated bool) *site {
	s := &site{n: n, m: m, reached: make(chan struct{}), full: make(chan struct{})}
	if gated {
		s.gate = make(chan struct{})
	}
	// Started once s.Server is set: its handler reads s.URL.
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.Start()
	t.Cleanup(func() {
		if s.gate != nil {
			s.open()
		}
		s.Close()
	})
	return s
}

func (s *site) open() {
	s.reachedOnce.Do(func() { close(s.reached) })
	select {
	case <-s.gate:
	default:
		close(s.gate)
	}
}

func (s *site) serve(w http.ResponseWriter, r *http.Request) {
	cur := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxInFlight.Load()
		if cur <= m || s.maxInFlight.CompareAndSwap(m, cur) {
			break
		}
	}
	s.requests.Add(1)
	s.mu.Lock()
	s.starts = append(s.starts, time.Now())
	s.mu.Unlock()
	if s.delay > 0 {
		time.Sleep(s.delay) // the site's latency, not a wait of the test
	}
	if r.URL.Path == "/index.xml" {
		fmt.Fprint(w, s.index())
		return
	}
	if body := s.robots.Load(); body != nil && r.URL.Path == "/robots.txt" {
		fmt.Fprint(w, *body)
		return
	}
	var i int
	if _, err := fmt.Sscanf(r.URL.Path, "/s/%d.xml", &i); err != nil || i >= s.n {
		http.NotFound(w, r)
		return
	}
	if s.gate != nil && i >= s.n/2 {
		s.reachedOnce.Do(func() { close(s.reached) })
		if s.fullAt > 0 && s.atGate.Add(1) == s.fullAt {
			s.fullOnce.Do(func() { close(s.full) })
		}
		select {
		case <-s.gate:
		case <-r.Context().Done():
			return
		}
	}
	fmt.Fprint(w, s.sitemap(i))
}

func (s *site) index() string {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range s.n {
		fmt.Fprintf(&b, "<sitemap><loc>%s/s/%d.xml</loc></sitemap>", s.URL, i)
	}
	b.WriteString("</sitemapindex>")
	return b.String()
}

func (s *site) sitemap(i int) string {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for j := range s.m {
		fmt.Fprintf(&b, "<url><loc>https://w3.example/%d/%d?a=1&amp;b=2</loc><lastmod>2024-01-%02dT10:00:00Z</lastmod><priority>0.%d</priority></url>", i, j, j%28+1, j%10)
	}
	b.WriteString("</urlset>")
	return b.String()
}

// reference returns the JSON lines of what the library reads from root,
// sorted: what sitemap -format jsonl prints.
func reference(t testing.TB, root string) []string {
	var lines []string
	for u, err := range sitemap.New().Stream(context.Background(), root, nil) {
		if err != nil {
			t.Fatalf("reference: %v", err)
		}
		var b bytes.Buffer
		if err := appendLine(&b, &u, ""); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
	}
	slices.Sort(lines)
	return lines
}

// collect reads the output of crawl to its end: its lines sorted, and its
// errors.
func collect(t testing.TB, ctx context.Context, f *Fleet, crawl string) (lines []string, errs []error) {
	for u, err := range f.URLs(ctx, crawl) {
		if err != nil {
			if _, ok := err.(*DocError); !ok {
				t.Fatalf("URLs: %v", err)
			}
			errs = append(errs, err)
			continue
		}
		lines = append(lines, string(u.JSON))
	}
	slices.Sort(lines)
	return lines, errs
}

// sameLines reports the first difference between got and want, both
// sorted: a line missing, or one twice.
func sameLines(t testing.TB, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	counts := map[string]int{}
	for _, l := range want {
		counts[l]++
	}
	for _, l := range got {
		counts[l]--
	}
	missing, extra := 0, 0
	for l, n := range counts {
		if n > 0 {
			missing += n
			if missing == n {
				t.Errorf("missing: %s", l)
			}
		} else if n < 0 {
			extra -= n
			if extra == -n {
				t.Errorf("more than once: %s", l)
			}
		}
	}
	t.Errorf("%d lines, want %d: %d missing, %d too many", len(got), len(want), missing, extra)
}

// startNode starts one server in a temporary directory, reached in
// process, and opens the fleet on it.
func startNode(t testing.TB) (*Server, *Fleet) {
	t.Helper()
	srv, err := StartServer(ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv, openFleet(t, srv, Options{AckWait: testAckWait})
}

func openFleet(t testing.TB, srv *Server, o Options) *Fleet {
	t.Helper()
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return openOn(t, nc, o)
}

func openOn(t testing.TB, nc *nats.Conn, o Options) *Fleet {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f, err := Open(ctx, nc, o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var workerNames atomic.Int64

// startWorkers runs n workers on f until the test ends.
func startWorkers(t testing.TB, f *Fleet, n int, o WorkerOptions) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range n {
		wo := o
		wo.Name = fmt.Sprintf("w%d", workerNames.Add(1))
		wo.Logf = t.Logf
		wg.Go(func() {
			if err := f.Work(ctx, wo); err != nil {
				t.Errorf("worker: %v", err)
			}
		})
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
}

// maxPerSecond returns the most requests the site received within any
// one second.
func (s *site) maxPerSecond() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	starts := slices.Clone(s.starts)
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	most := 0
	for i := range starts {
		n := 0
		for j := i; j < len(starts) && starts[j].Sub(starts[i]) < time.Second; j++ {
			n++
		}
		most = max(most, n)
	}
	return most
}
