package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// parked returns how many goroutines are blocked (neither running nor
// runnable) with every one of the frames in has on their stack and none of
// those in hasNot. It tells where a Parse call is waiting by the public
// entry point and net/http, not by the package's internals.
func parked(has, hasNot []string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	parked := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "[running]") || strings.Contains(header, "[runnable]") || strings.Contains(header, "[syscall") {
			continue
		}
		ok := true
		for _, f := range has {
			ok = ok && strings.Contains(g, f)
		}
		for _, f := range hasNot {
			ok = ok && !strings.Contains(g, f)
		}
		if ok {
			parked++
		}
	}
	return parked
}

const (
	ct1FrameParse    = "sitemap.(*S).ParseContext("
	ct1FrameDo       = "net/http.(*Client).Do("
	ct1FrameBodyRead = "net/http.(*bodyEOFSignal).Read("
)

// waitParked waits until a goroutine is blocked with the frames in has
// on its stack, failing the test after guardTimeout.
func waitParked(t *testing.T, what string, has ...string) {
	t.Helper()
	guard := time.After(guardTimeout)
	for parked(has, nil) == 0 {
		select {
		case <-guard:
			t.Fatalf("no goroutine seen %s", what)
		default:
			runtime.Gosched()
		}
	}
}

// THREAD-2, THREAD-3, THREAD-4, THREAD-5, THREAD-9, GETURLS-4, ERRORS-12:
// while Parse waits for the answer of a sitemap (fetch), and while it reads
// one whose server has sent half of it and stalls (decode and parse), every
// getter and every setter returns at once; the getters give what has been
// collected so far, without the URLs of the half-read sitemap; slices taken
// then never change; the limits set meanwhile do not reach the running
// call, but the next one.
func TestGettersAndSettersDoNotWaitForParse(t *testing.T) {
	noAnswer, halfBody := newGate(t), newGate(t)
	head := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
		"<url><loc>https://example.com/s1</loc></url><url><loc>https://example.com/s2</loc></url>\n" +
		// Past the few KiB a reader may look ahead to tell the format, so
		// that the two URLs above are read before the parser waits.
		"<!-- " + strings.Repeat("padding ", 1024) + "-->\n"
	tail := "<url><loc>https://example.com/s3</loc></url></urlset>"
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("{base}/a.xml", "{base}/missing.xml", "{base}/late.xml", "{base}/slow.xml")},
		"/a.xml":     {Body: urlset("https://example.com/a1", "https://example.com/a2")},
		"/late.xml":  {Handler: noAnswer.handler(func() string { return urlset("https://example.com/late") })},
		"/slow.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, head)
			w.(http.Flusher).Flush()
			if halfBody.Wait(r) {
				io.WriteString(w, tail)
			}
		}},
	})
	s := sitemap.New().SetMultiThread(false)
	done := make(chan error, 1)
	go func() { _, err := s.Parse(srv.At("/index.xml"), nil); done <- err }()

	var midURLs []sitemap.URL
	var midErrs []error
	getters := func(wantURLs []string, wantErrs int) {
		t.Helper()
		guard(t, guardTimeout, func() {
			midURLs, midErrs = s.GetURLs(), s.GetErrors()
			if got := locsOf(midURLs); !slices.Equal(got, wantURLs) {
				t.Errorf("GetURLs() during Parse = %q, want %q", got, wantURLs)
			}
			if n := int(s.GetURLCount()); n != len(wantURLs) {
				t.Errorf("GetURLCount() = %d", n)
			}
			if n := len(slices.Collect(s.URLs())); n != len(wantURLs) {
				t.Errorf("URLs() yields %d", n)
			}
			if n := len(s.GetRandomURLs(10)); n != len(wantURLs) {
				t.Errorf("GetRandomURLs(10) = %d URLs", n)
			}
			if n := s.GetSitemapCount(); n != 4 || len(s.GetSitemaps()) != 4 {
				t.Errorf("GetSitemapCount() = %d, want 4", n)
			}
			if len(midErrs) != wantErrs || int(s.GetErrorsCount()) != wantErrs || len(slices.Collect(s.Errors())) != wantErrs {
				t.Errorf("GetErrors() during Parse = %q, want the 404 of missing.xml", messagesOf(midErrs))
			}
			_ = s.GetUserAgent()
			_ = s.GetFetchTimeout()
			_ = s.GetMaxResponseSize()
			_ = s.GetMaxDepth()
			_ = s.GetMaxConcurrency()
			_ = s.GetMaxSitemaps()
			_ = s.GetMaxURLs()
			_ = s.GetMaxValidationErrors()
			_ = s.GetMultiThread()
			_ = s.GetStrict()
			_ = s.GetFollow()
			_ = s.GetRules()
			_ = s.GetHTTPClient()
			s.SetUserAgent("changed").SetFetchTimeout(5).SetMaxResponseSize(sitemap.DefaultMaxResponseSize).
				SetMaxDepth(10).SetMaxConcurrency(4).SetMultiThread(true).SetStrict(false).
				SetFollow(nil).SetRules(nil).SetHTTPClient(nil).
				// THREAD-9: fixed when a call starts.
				SetMaxSitemaps(1).SetMaxURLs(1).SetMaxValidationErrors(1)
		})
	}

	// Fetch: late.xml has not answered.
	recv(t, noAnswer.entered, "the request of late.xml")
	waitParked(t, "in Parse waiting for the answer of late.xml", ct1FrameParse, ct1FrameDo)
	getters([]string{"https://example.com/a1", "https://example.com/a2"}, 1)
	noAnswer.Release()

	// Decode and parse: slow.xml has sent half of its body.
	recv(t, halfBody.entered, "the request of slow.xml")
	waitParked(t, "in Parse reading the body of slow.xml", ct1FrameParse, ct1FrameBodyRead)
	// THREAD-5: the URLs of slow.xml read so far are not there yet.
	before := []string{"https://example.com/a1", "https://example.com/a2", "https://example.com/late"}
	getters(before, 1)
	halfBody.Release()

	if err := recv(t, done, "Parse"); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(before), "https://example.com/s1", "https://example.com/s2", "https://example.com/s3")
	if got := locsOf(s.GetURLs()); !slices.Equal(got, want) {
		t.Errorf("GetURLs() = %q, want %q: the limits set during the call must not apply to it", got, want)
	}
	if errs := s.GetErrors(); len(errs) != 1 {
		t.Errorf("GetErrors() = %q, want only the 404", messagesOf(errs))
	}
	if got := locsOf(midURLs); !slices.Equal(got, before) {
		t.Errorf("the slice taken during the call changed: %q", got)
	}
	if len(midErrs) != 1 {
		t.Errorf("the error slice taken during the call changed: %q", messagesOf(midErrs))
	}
	// The next call has the new limits.
	guard(t, guardTimeout, func() {
		if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
			t.Error(err)
		}
	})
	if s.GetURLCount() != 1 {
		t.Errorf("the next call collected %d URLs, want 1", s.GetURLCount())
	}
}

// THREAD-7, PARSE-11: concurrent Parse and ParseContext calls on one
// instance are serialised. Each call's request is held by the server until
// the other callers are seen parked inside ParseContext, before their calls
// start; a second request in flight meanwhile fails the test at once.
func TestConcurrentParseSerialised(t *testing.T) {
	const callers = 4
	var inFlight, most atomic.Int32
	violation := make(chan struct{}, callers)
	entered := make(chan struct{}, callers)
	release, unblock := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(unblock) }) // on failure, before the server closes
	srv := serve(t, map[string]route{"/sitemap.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n > 1 {
			violation <- struct{}{}
		}
		entered <- struct{}{}
		select {
		case <-release:
		case <-unblock:
			return
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, urlset("https://example.com/page"))
	}}})

	s := sitemap.New()
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for i := range callers {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = s.Parse(srv.At("/sitemap.xml"), nil)
			} else {
				_, err = s.ParseContext(context.Background(), srv.At("/sitemap.xml"), nil)
			}
			errs <- err
		})
	}
	guard := time.After(guardTimeout)
	for k := 1; k <= callers; k++ {
		select {
		case <-entered:
		case <-violation:
			t.Fatal("two requests of concurrent Parse calls in flight at once")
		case <-guard:
			t.Fatalf("call %d never reached the server", k)
		}
		// The others wait for this call, parked before theirs starts.
		// Blocked in ParseContext and in no request: waiting to start.
		for parked([]string{ct1FrameParse}, []string{"net/http."}) != callers-k {
			select {
			case <-violation:
				t.Fatal("two requests of concurrent Parse calls in flight at once")
			case <-guard:
				t.Fatalf("after call %d: %d callers parked, want %d", k, parked([]string{ct1FrameParse}, []string{"net/http."}), callers-k)
			default:
				runtime.Gosched()
			}
		}
		release <- struct{}{}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if most.Load() != 1 || srv.Hits("/sitemap.xml") != callers {
		t.Errorf("at most %d requests in flight (want 1), %d requests (want %d)", most.Load(), srv.Hits("/sitemap.xml"), callers)
	}
	if s.GetURLCount() != 1 || s.GetErrorsCount() != 0 {
		t.Errorf("after the calls: %d URLs, errors %q; want the one URL of the last call", s.GetURLCount(), messagesOf(s.GetErrors()))
	}
}

// THREAD-8: instances do not wait for each other: two instances have
// requests in flight at the same time, and each keeps its own results.
func TestSeparateInstancesRunInParallel(t *testing.T) {
	b := newGate(t)
	srv := serve(t, map[string]route{
		"/a.xml": {Handler: b.handler(func() string { return urlset("https://example.com/a") })},
		"/b.xml": {Handler: b.handler(func() string { return urlset("https://example.com/b1", "https://example.com/b2") })},
	})
	sa, sb := sitemap.New(), sitemap.New()
	done := make(chan error, 2)
	go func() { _, err := sa.Parse(srv.At("/a.xml"), nil); done <- err }()
	go func() { _, err := sb.Parse(srv.At("/b.xml"), nil); done <- err }()
	recv(t, b.entered, "the first instance's request")
	recv(t, b.entered, "the second instance's request while the first is open")
	b.Release()
	for range 2 {
		if err := recv(t, done, "Parse"); err != nil {
			t.Error(err)
		}
	}
	if got := locsOf(sa.GetURLs()); !slices.Equal(got, []string{"https://example.com/a"}) {
		t.Errorf("instance a: %q", got)
	}
	if got := locsOf(sb.GetURLs()); !slices.Equal(got, []string{"https://example.com/b1", "https://example.com/b2"}) {
		t.Errorf("instance b: %q", got)
	}
}

// THREAD-1, GETCONF-6: every method called from several goroutines at
// once, while multi-threaded calls run; the race detector must stay quiet
// and the lists stay consistent.
func TestEveryMethodConcurrently(t *testing.T) {
	routes := map[string]route{"/index.xml": {Body: index("{base}/1.xml", "{base}/2.xml", "{base}/3.xml", "{base}/4.xml", "{base}/missing.xml")}}
	for i := 1; i <= 4; i++ {
		routes[fmt.Sprintf("/%d.xml", i)] = route{Body: urlset(fmt.Sprintf("{base}/%d/a", i), fmt.Sprintf("{base}/%d/b", i), "ftp://example.com/x")}
	}
	srv := serve(t, routes)
	s := sitemap.New().SetMaxConcurrency(2)
	stop := make(chan struct{})
	var readers, parsers sync.WaitGroup
	for range 2 {
		parsers.Go(func() {
			for i := range 3 {
				var err error
				if i%2 == 0 {
					_, err = s.Parse(srv.At("/index.xml"), nil)
				} else {
					_, err = s.ParseContext(context.Background(), srv.At("/index.xml"), nil)
				}
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	for r := range 4 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				urls := s.GetURLs()
				for _, u := range urls {
					_ = u.Loc
				}
				for u := range s.URLs() {
					u.Loc = "mine"
				}
				for range s.Errors() {
				}
				_ = s.GetRandomURLs(3)
				sms := s.GetSitemaps()
				if len(sms) > 0 {
					sms[0].Loc = "mine"
				}
				_, _, _ = s.GetURLCount(), s.GetSitemapCount(), s.GetErrorsCount()
				_ = s.GetErrors()
				_, _, _, _ = s.GetUserAgent(), s.GetFetchTimeout(), s.GetMaxResponseSize(), s.GetMaxDepth()
				_, _, _, _ = s.GetMaxConcurrency(), s.GetMaxSitemaps(), s.GetMaxURLs(), s.GetMaxValidationErrors()
				_, _, _, _, _ = s.GetMultiThread(), s.GetStrict(), s.GetFollow(), s.GetRules(), s.GetHTTPClient()
				s.SetUserAgent(fmt.Sprintf("agent-%d", r)).SetFetchTimeout(3).SetMaxResponseSize(1 << 20).
					SetMaxDepth(5).SetMaxConcurrency(r%3 + 1).SetMaxSitemaps(0).SetMaxURLs(0).
					SetMaxValidationErrors(0).SetMultiThread(r%2 == 0).SetStrict(false).
					SetFollow([]string{`\.xml$`}).SetRules(nil).SetHTTPClient(nil)
				runtime.Gosched() // leave the parsers room to run
			}
		})
	}
	parsers.Wait()
	close(stop)
	readers.Wait()
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	if s.GetURLCount() != 8 || len(s.GetURLs()) != 8 || s.GetSitemapCount() != 5 {
		t.Errorf("after the storm: %d URLs, %d sitemaps; want 8 and 5", s.GetURLCount(), s.GetSitemapCount())
	}
	var nets int
	for _, err := range s.GetErrors() {
		var ne *sitemap.NetworkError
		if errors.As(err, &ne) {
			nets++
		}
	}
	if nets != 1 || s.GetErrorsCount() != 5 {
		t.Errorf("errors %q, want the 404 and four validation errors", messagesOf(s.GetErrors()))
	}
}
