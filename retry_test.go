package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/gositemap/sitemap/internal/polite"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// Retries and Retry-After (issue 16): Politeness.Retry, Max and MaxWait. The
// waits run on a test clock (SetClockForTest) that records them and
// returns at once, or blocks on a gate: no test sleeps.

const rtURLSet = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`

// rtClock is a test clock that records the waits and returns at once; now
// moves on by each wait.
type rtClock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
}

func newRTClock() *rtClock { return &rtClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (k *rtClock) clock() *sitemap.TestClock {
	return &sitemap.TestClock{
		Now: func() time.Time { k.mu.Lock(); defer k.mu.Unlock(); return k.t },
		Sleep: func(ctx context.Context, d time.Duration) error {
			k.mu.Lock()
			defer k.mu.Unlock()
			k.waits = append(k.waits, d)
			k.t = k.t.Add(d)
			return ctx.Err()
		},
		Jitter: func(n int64) int64 { return n - 1 }, // the top of the range
	}
}

func (k *rtClock) got() []time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]time.Duration(nil), k.waits...)
}

// rtServe answers the requests of the sitemap in turn with the statuses
// and headers of answers, then with rtURLSet, and counts them.
func rtServe(t *testing.T, answers ...func(w http.ResponseWriter)) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i < len(answers) {
			answers[i](w)
			return
		}
		fmt.Fprint(w, rtURLSet)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func rtStatus(code int, retryAfter string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(code)
		fmt.Fprint(w, "not now")
	}
}

func rtNew(k *rtClock) *sitemap.S {
	s := sitemap.New().SetFetchTimeout(60)
	sitemap.SetClockForTest(s, k.clock())
	return s
}

func rtWaits(t *testing.T, got []time.Duration, want ...time.Duration) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("waits = %v, want %v", got, want)
	}
}

// The case: 429 with Retry-After: 1 twice, then 200.
func TestRetry429RetryAfterSeconds(t *testing.T) {
	srv, n := rtServe(t, rtStatus(429, "1"), rtStatus(429, "1"))
	k := newRTClock()
	s := rtNew(k).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 3}})
	if _, err := s.Parse(srv.URL, nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := len(s.GetURLs()); got != 2 {
		t.Errorf("%d URLs, want 2", got)
	}
	if n.Load() != 3 {
		t.Errorf("%d requests, want 3", n.Load())
	}
	rtWaits(t, k.got(), time.Second, time.Second)
	if len(s.GetErrors()) != 0 {
		t.Errorf("errors: %v", s.GetErrors())
	}
}

// A Retry-After beyond the cap gives up at once, with the *NetworkError of
// that response. The forms of Retry-After, the backoff and its cap are
// tested on the engine (internal/polite).
func TestRetryAfterBeyondCapGivesUp(t *testing.T) {
	for _, after := range []string{"120", "Fri, 01 Mar 2036 00:00:00 GMT"} {
		t.Run(after, func(t *testing.T) {
			srv, n := rtServe(t, rtStatus(429, after))
			k := newRTClock()
			s := rtNew(k).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 3, MaxWait: time.Minute}})
			_, err := s.Parse(srv.URL, nil)
			var nerr *sitemap.NetworkError
			if !errors.As(err, &nerr) || !strings.Contains(err.Error(), "429") {
				t.Fatalf("error = %v, want the *NetworkError of the 429", err)
			}
			if n.Load() != 1 || len(k.got()) != 0 {
				t.Errorf("%d requests, waits %v; want 1 request and no wait", n.Load(), k.got())
			}
		})
	}
}

// The error after the last try is that of the last response.
func TestRetryExhaustedLastResponse(t *testing.T) {
	srv, n := rtServe(t, rtStatus(503, "1"), rtStatus(503, "1"), rtStatus(502, "1"))
	k := newRTClock()
	s := rtNew(k).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 2}})
	_, err := s.Parse(srv.URL, nil)
	var nerr *sitemap.NetworkError
	if !errors.As(err, &nerr) || nerr.URL != srv.URL || !strings.Contains(err.Error(), "502") {
		t.Fatalf("error = %v, want the *NetworkError of the last response, a 502", err)
	}
	if n.Load() != 3 {
		t.Errorf("%d requests, want 3", n.Load())
	}
	if len(s.GetErrors()) != 1 {
		t.Errorf("errors = %v, want one", s.GetErrors())
	}
}

// Other statuses are not retried (the table is the engine's, in
// internal/polite), and nothing is retried by default.
func TestRetryNotOtherStatuses(t *testing.T) {
	for _, code := range []int{404, 500} {
		srv, n := rtServe(t, rtStatus(code, "1"))
		k := newRTClock()
		if _, err := rtNew(k).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 3}}).Parse(srv.URL, nil); err == nil {
			t.Errorf("%d: no error", code)
		}
		if n.Load() != 1 || len(k.got()) != 0 {
			t.Errorf("%d: %d requests, waits %v; want 1 and none", code, n.Load(), k.got())
		}
	}
	srv, n := rtServe(t, rtStatus(503, "1"))
	k := newRTClock()
	s := rtNew(k)
	if _, err := s.Parse(srv.URL, nil); err == nil || n.Load() != 1 {
		t.Errorf("by default: %v after %d requests; want the 503 after one", err, n.Load())
	}
	if s.GetPoliteness().Retry.Max != 0 {
		t.Errorf("GetPoliteness().Retry.Max = %d by default", s.GetPoliteness().Retry.Max)
	}
}

// rtTransport answers with errs in turn (nil: the urlset), and counts.
type rtTransport struct {
	mu   sync.Mutex
	errs []error
	n    int
	body func() io.ReadCloser // the body of a 200, rtURLSet when nil
}

func (rt *rtTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	i := rt.n
	rt.n++
	rt.mu.Unlock()
	if i < len(rt.errs) && rt.errs[i] != nil {
		return nil, rt.errs[i]
	}
	body := io.NopCloser(strings.NewReader(rtURLSet))
	if rt.body != nil {
		body = rt.body()
	}
	return &http.Response{StatusCode: 200, Status: "200 OK", Body: body, Header: http.Header{}, ContentLength: -1, Request: req}, nil
}

func (rt *rtTransport) count() int { rt.mu.Lock(); defer rt.mu.Unlock(); return rt.n }

// A failure of the transport before the response is retried when the
// engine says it may pass (a reset), and not otherwise (a refused
// connection); which failures pass is tested in internal/polite.
func TestRetryConnectionFailures(t *testing.T) {
	reset := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	for name, tc := range map[string]struct {
		err  error
		want int
	}{
		"reset":   {reset, 2},
		"refused": {&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, 1},
	} {
		t.Run(name, func(t *testing.T) {
			rt := &rtTransport{errs: []error{tc.err}}
			k := newRTClock()
			s := rtNew(k).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 1}}).SetHTTPClient(&http.Client{Transport: rt})
			_, err := s.Parse("http://example.test/sitemap.xml", nil)
			if rt.count() != tc.want {
				t.Errorf("%d tries, want %d", rt.count(), tc.want)
			}
			if (tc.want == 2) != (err == nil) {
				t.Errorf("error = %v", err)
			}
		})
	}
}

// rtBrokenBody gives part of a urlset, then a reset.
type rtBrokenBody struct{ sent bool }

func (b *rtBrokenBody) Read(p []byte) (int, error) {
	if b.sent {
		return 0, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	}
	b.sent = true
	return copy(p, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url><url><loc>https://exa`), nil
}

func (b *rtBrokenBody) Close() error { return nil }

// Once body bytes have reached the parser, a failure is not retried: a
// retry would hand on the URLs read twice.
func TestRetryNotOnceBodyRead(t *testing.T) {
	rt := &rtTransport{body: func() io.ReadCloser { return &rtBrokenBody{} }}
	k := newRTClock()
	s := rtNew(k).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 3}}).SetHTTPClient(&http.Client{Transport: rt})
	var urls []string
	var errs []error
	for u, err := range s.Stream(t.Context(), "http://example.test/sitemap.xml", nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		urls = append(urls, u.Loc)
	}
	if rt.count() != 1 {
		t.Errorf("%d tries, want 1", rt.count())
	}
	if len(urls) > 1 {
		t.Errorf("URLs = %v, want each at most once", urls)
	}
	var nerr *sitemap.NetworkError
	if len(errs) != 1 || !errors.As(errs[0], &nerr) || !errors.Is(errs[0], syscall.ECONNRESET) {
		t.Errorf("errors = %v, want the *NetworkError of the reset", errs)
	}
}

// A wait for a retry holds no slot: with one slot, the sitemap after the
// one waiting is read during the wait, which ends only once it has been
// requested. Were the slot held, the call would never end.
func TestRetryWaitHoldsNoSlot(t *testing.T) {
	bAsked := make(chan struct{})
	var aTries atomic.Int64
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, srv.URL)
		case "/a.xml":
			if aTries.Add(1) == 1 {
				rtStatus(503, "30")(w)
				return
			}
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`)
		case "/b.xml":
			close(bAsked)
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/b</loc></url></urlset>`)
		}
	}))
	defer srv.Close()
	s := sitemap.New().SetFetchTimeout(60).SetMaxConcurrency(1).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 1}})
	sitemap.SetClockForTest(s, &sitemap.TestClock{Sleep: func(ctx context.Context, d time.Duration) error {
		select {
		case <-bAsked:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}})
	guard(t, 60*time.Second, func() {
		if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil {
			t.Errorf("Parse: %v", err)
		}
	})
	if got := len(s.GetURLs()); got != 2 {
		t.Errorf("%d URLs, want 2 (errors %v)", got, s.GetErrors())
	}
}

// A wait ends at once when the context ends: the real clock, a wait of
// fifty minutes, and a context cancelled once the wait has begun.
func TestRetryWaitEndsWithContext(t *testing.T) {
	srv, n := rtServe(t, rtStatus(503, "3000"))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := sitemap.New().SetFetchTimeout(60).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 1, MaxWait: time.Hour}})
	sitemap.SetClockForTest(s, &sitemap.TestClock{Sleep: func(c context.Context, d time.Duration) error {
		cancel()
		return sitemap.RealSleep(c, d)
	}})
	guard(t, 60*time.Second, func() {
		_, err := s.ParseContext(ctx, srv.URL, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want one wrapping context.Canceled", err)
		}
	})
	if n.Load() != 1 {
		t.Errorf("%d requests, want 1", n.Load())
	}
}

func TestRetrySettingsRejected(t *testing.T) {
	for name, tc := range map[string]struct {
		r     sitemap.Retry
		field string
	}{
		"retries -1":   {sitemap.Retry{Max: -1}, "politeness.retry.max"},
		"retries 101":  {sitemap.Retry{Max: 101}, "politeness.retry.max"},
		"max wait -1s": {sitemap.Retry{MaxWait: -time.Second}, "politeness.retry.maxWait"},
	} {
		s := sitemap.New().SetPoliteness(sitemap.Politeness{Retry: tc.r})
		var cerr *sitemap.ConfigError
		if errs := s.GetErrors(); len(errs) != 1 || !errors.As(errs[0], &cerr) || cerr.Field != tc.field {
			t.Errorf("%s: errors = %v, want one *ConfigError for %s", name, errs, tc.field)
		}
	}
	s := sitemap.New()
	if s.GetPoliteness().Retry.MaxWait != polite.DefaultMaxWait {
		t.Errorf("GetPoliteness().Retry.MaxWait = %v by default", s.GetPoliteness().Retry.MaxWait)
	}
	if s.SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 3, MaxWait: time.Second}}); s.GetPoliteness().Retry != (sitemap.Retry{Max: 3, MaxWait: time.Second}) {
		t.Errorf("got %+v", s.GetPoliteness().Retry)
	}
	// A MaxWait of 0 is the default.
	if s.SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 1}}); len(s.GetErrors()) != 0 || s.GetPoliteness().Retry.MaxWait != polite.DefaultMaxWait {
		t.Errorf("MaxWait 0: errors %v, MaxWait %v", s.GetErrors(), s.GetPoliteness().Retry.MaxWait)
	}
}

// The requests of a discovery hold no slot: a retry of one of them waits
// without giving one back. It gave back a slot it did not hold, and the
// semaphore panicked, when whether a request held a slot was told by its
// URL not being the one passed to the call.
func TestRetryInDiscoveryHoldsNoSlot(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	s := sitemap.New().SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 1}}).SetFetchTimeout(60)
	if _, err := s.Discover(context.Background(), srv.URL, nil); err != nil {
		t.Logf("Discover: %v", err)
	}
	if n.Load() < 4 || n.Load()%2 != 0 {
		t.Errorf("%d requests, want each candidate tried twice", n.Load())
	}
}

// In a Stream with the default client, a try whose server's clock runs out
// before the response is a timeout like any other, and is tried again with
// a clock of its own: the clock spanned every try, and the first try's
// timeout ended the request for good. The first request waits for its
// context (the clock's cancel, after the fetch timeout of the tests); the second
// is answered.
func TestRetryStreamTimeoutBeforeResponse(t *testing.T) {
	t.Parallel() // it waits for a timeout and measures no heap: beside the others
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			<-r.Context().Done()
			return
		}
		fmt.Fprint(w, rtURLSet)
	}))
	defer srv.Close()
	k := newRTClock()
	s := shortTimeout().SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 1}})
	sitemap.SetClockForTest(s, k.clock())
	urls := 0
	for _, err := range s.Stream(context.Background(), srv.URL+"/sitemap.xml", nil) {
		if err != nil {
			t.Fatalf("Stream: %v", err)
		}
		urls++
	}
	if urls != 2 || n.Load() != 2 {
		t.Errorf("%d URLs in %d requests, want 2 in 2", urls, n.Load())
	}
}
