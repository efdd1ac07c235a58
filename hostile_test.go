package sitemap_test

// The torture suite: one named test a hostile input, each built in code,
// each guarded by a timer so that a hang fails instead of blocking, each
// checking the typed error and sentinel it must end in, that what was good
// in the other documents is kept, and that the heap stays bounded.

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

const hNS = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

// hGuard fails the test when f has not returned within d.
func hGuard(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not finish within %v", d)
	}
}

// hPeakHeap runs f and returns the largest heap in use seen while it ran,
// above the heap in use before it started.
func hPeakHeap(f func()) uint64 {
	runtime.GC()
	return hPeakOf(hHeapInUse, 20*time.Millisecond, f)
}

// hPeakOf runs f and returns the most that read gave, looked at every
// period while f ran, above what it gave before f started.
func hPeakOf(read func() uint64, every time.Duration, f func()) uint64 {
	base := read()
	var peak uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done // peak is read after the goroutine has written it last
	if peak > base {
		return peak - base
	}
	return 0
}

// hHeapInUse is the heap in use, garbage not yet collected included.
func hHeapInUse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// hLiveHeap is the live heap: the garbage is collected first.
func hLiveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// hSite serves an index at /index.xml listing /good.xml and /bad.xml; the
// good urlset has two URLs, and bad is the handler under test.
func hSite(t *testing.T, bad http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	// Absolute locations, which strict mode requires.
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<sitemapindex %s><sitemap><loc>http://%s/good.xml</loc></sitemap><sitemap><loc>http://%[2]s/bad.xml</loc></sitemap></sitemapindex>`, hNS, r.Host)
	})
	mux.HandleFunc("/good.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset %s><url><loc>http://%s/good-1</loc></url><url><loc>http://%[2]s/good-2</loc></url></urlset>`, hNS, r.Host)
	})
	mux.HandleFunc("/bad.xml", bad)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// hCheckGood checks that the URLs of /good.xml were kept.
func hCheckGood(t *testing.T, s *sitemap.S, srv *httptest.Server) {
	t.Helper()
	want := map[string]bool{srv.URL + "/good-1": true, srv.URL + "/good-2": true}
	for _, u := range s.GetURLs() {
		delete(want, u.Loc)
	}
	if len(want) > 0 {
		t.Errorf("URLs of the good sitemap missing: %v (got %d URLs)", want, s.GetURLCount())
	}
}

// hOneError returns the only error of type E recorded about url.
func hOneError[E error](t *testing.T, s *sitemap.S, url string) E {
	t.Helper()
	var found []E
	for err := range s.Errors() {
		var e E
		if errors.As(err, &e) && strings.Contains(err.Error(), fmt.Sprintf("%q", url)) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %T about %s, got %d; errors: %v", *new(E), url, len(found), s.GetErrors())
	}
	return found[0]
}

func hParse(t *testing.T, s *sitemap.S, url string, limit time.Duration) (heap uint64, err error) {
	t.Helper()
	hGuard(t, limit, func() {
		heap = hPeakHeap(func() { _, err = s.Parse(url, nil) })
	})
	t.Logf("peak heap above baseline: %.1f MiB", float64(heap)/(1<<20))
	return heap, err
}

const mib = 1 << 20

// hNew returns an instance whose requests may take long, so that a loaded
// machine does not turn a test of something else into one of the timeout.
func hNew() *sitemap.S { return sitemap.New().SetFetchTimeout(60) }

// ADOPTED-2: the decompressed size is capped, whatever the compressed one.
func TestHostileGzipBomb(t *testing.T) {
	// 100 members of 10 MiB of zeros each: 1 GiB that compresses to about
	// 1 MiB. The decompressed size is capped at the response size limit.
	var member bytes.Buffer
	z, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	z.Write(make([]byte, 10*mib))
	z.Close()
	bomb := bytes.Repeat(member.Bytes(), 100)
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) { w.Write(bomb) })
	s := hNew()
	heap, err := hParse(t, s, srv.URL+"/index.xml", 20*time.Second)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	pe := hOneError[*sitemap.ParseError](t, s, srv.URL+"/bad.xml")
	if !errors.Is(pe, sitemap.ErrMaxResponseSize) {
		t.Errorf("error %v does not wrap ErrMaxResponseSize", pe)
	}
	hCheckGood(t, s, srv)
	if heap > 64*mib {
		t.Errorf("peak heap %d MiB for a gzip bomb", heap/mib)
	}
}

func TestHostileGzipTruncatedLastMember(t *testing.T) {
	var buf bytes.Buffer
	for _, part := range []string{`<urlset ` + hNS + `><url><loc>/a</loc></url>`, `<url><loc>/b</loc></url></urlset>`} {
		z := gzip.NewWriter(&buf)
		z.Write([]byte(part))
		z.Close()
	}
	cut := buf.Bytes()[:buf.Len()-6]
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) { w.Write(cut) })
	s := hNew()
	if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	pe := hOneError[*sitemap.ParseError](t, s, srv.URL+"/bad.xml")
	if got, want := pe.Err.Error(), "gzip decompression failed: unexpected EOF"; got != want {
		t.Errorf("cause %q, want %q", got, want)
	}
	for _, u := range s.GetURLs() {
		if strings.HasSuffix(u.Loc, "/a") || strings.HasSuffix(u.Loc, "/b") {
			t.Errorf("URL %s of a document that could not be decompressed was kept", u.Loc)
		}
	}
	hCheckGood(t, s, srv)
}

func TestHostileMillionNestedElements(t *testing.T) {
	doc := `<urlset ` + hNS + `><url>` + strings.Repeat("<a>", 1_000_000) + strings.Repeat("</a>", 1_000_000) + `</url></urlset>`
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, doc) })
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%v", strict), func(t *testing.T) {
			s := hNew().SetStrict(strict)
			heap, err := hParse(t, s, srv.URL+"/index.xml", 20*time.Second)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			hOneError[*sitemap.ParseError](t, s, srv.URL+"/bad.xml")
			hCheckGood(t, s, srv)
			if heap > 64*mib {
				t.Errorf("peak heap %d MiB", heap/mib)
			}
		})
	}
}

// hEndless writes prefix, then fill bytes until the client goes away or n
// bytes have been written.
func hEndless(prefix string, fill byte, n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, prefix)
		chunk := bytes.Repeat([]byte{fill}, 64<<10)
		for written := 0; written < n; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
}

func TestHostileHugeLocWithoutEnd(t *testing.T) {
	// 100 MB of a <loc> that never ends: the response size limit (50 MB by
	// default) ends it.
	srv := hSite(t, hEndless(`<urlset `+hNS+`><url><loc>https://example.com/`, 'a', 100*mib))
	s := hNew()
	heap, err := hParse(t, s, srv.URL+"/index.xml", 30*time.Second)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ne := hOneError[*sitemap.NetworkError](t, s, srv.URL+"/bad.xml")
	if !errors.Is(ne, sitemap.ErrMaxResponseSize) {
		t.Errorf("error %v does not wrap ErrMaxResponseSize", ne)
	}
	hCheckGood(t, s, srv)
	if heap > 200*mib {
		t.Errorf("peak heap %d MiB", heap/mib)
	}
}

func TestHostileLongLineInTextSitemap(t *testing.T) {
	// A 10 MB line, then a good URL: the line costs only itself.
	body := "https://example.com/" + strings.Repeat("x", 10*mib) + "\nhttps://example.com/after\n"
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
	s := hNew()
	heap, err := hParse(t, s, srv.URL+"/index.xml", 20*time.Second)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	var after bool
	for _, u := range s.GetURLs() {
		after = after || u.Loc == "https://example.com/after"
		if len(u.Loc) > 2048 {
			t.Errorf("URL of %d characters kept", len(u.Loc))
		}
	}
	if !after {
		t.Errorf("the URL after the long line is missing")
	}
	var ve *sitemap.ValidationError
	if !hHas(s, &ve) || len(ve.URL) > 4*2048 {
		t.Errorf("want a ValidationError naming the long URL shortened, got %v", ve)
	}
	hCheckGood(t, s, srv)
	if heap > 64*mib {
		t.Errorf("peak heap %d MiB", heap/mib)
	}
}

func hHas[E error](s *sitemap.S, target *E) bool {
	for err := range s.Errors() {
		if errors.As(err, target) {
			return true
		}
	}
	return false
}

func TestHostileLongLineInRobots(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "Disallow: /"+strings.Repeat("x", 10*mib)+"\nSitemap: "+srv.URL+"/s.xml\n")
	})
	mux.HandleFunc("/s.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset %s><url><loc>/p</loc></url></urlset>`, hNS)
	})
	s := hNew()
	if _, err := hParse(t, s, srv.URL+"/robots.txt", 20*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if s.GetURLCount() != 1 {
		t.Errorf("got %d URLs, want the 1 of the sitemap after the long line; errors %v", s.GetURLCount(), s.GetErrors())
	}
}

// hCounting serves documents by path and counts the requests of each.
type hCounting struct {
	mu    sync.Mutex
	count map[string]int
	docs  map[string]string
}

func (h *hCounting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.count[r.URL.Path]++
	doc, ok := h.docs[r.URL.Path]
	h.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, doc)
}

func hServe(t *testing.T, docs map[string]string) (*httptest.Server, *hCounting) {
	h := &hCounting{count: map[string]int{}, docs: docs}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

func hIndex(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<sitemapindex ` + hNS + `>`)
	for _, l := range locs {
		b.WriteString(`<sitemap><loc>` + l + `</loc></sitemap>`)
	}
	b.WriteString(`</sitemapindex>`)
	return b.String()
}

func TestHostileIndexListsItself(t *testing.T) {
	srv, h := hServe(t, map[string]string{
		"/index.xml": hIndex("/index.xml", "/good.xml"),
		"/good.xml":  `<urlset ` + hNS + `><url><loc>/p</loc></url></urlset>`,
	})
	for _, multi := range []bool{true, false} {
		h.count = map[string]int{}
		s := hNew().SetMultiThread(multi)
		if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
			t.Fatalf("Parse: %v", err)
		}
		if h.count["/index.xml"] != 1 || h.count["/good.xml"] != 1 {
			t.Errorf("requests %v, want each once", h.count)
		}
		if s.GetURLCount() != 1 || s.GetSitemapCount() != 2 {
			t.Errorf("got %d URLs and %d sitemaps, want 1 and 2", s.GetURLCount(), s.GetSitemapCount())
		}
	}
}

// CTX-4: a call without a deadline ends when every sitemap is handled.
func TestHostileIndexesListEachOther(t *testing.T) {
	srv, h := hServe(t, map[string]string{
		"/a.xml":  hIndex("/b.xml", "/pa.xml"),
		"/b.xml":  hIndex("/a.xml", "/pb.xml"),
		"/pa.xml": `<urlset ` + hNS + `><url><loc>/pa</loc></url></urlset>`,
		"/pb.xml": `<urlset ` + hNS + `><url><loc>/pb</loc></url></urlset>`,
	})
	s := hNew()
	if _, err := hParse(t, s, srv.URL+"/a.xml", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for path, n := range h.count {
		if n != 1 {
			t.Errorf("%s requested %d times", path, n)
		}
	}
	if s.GetURLCount() != 2 {
		t.Errorf("got %d URLs, want 2", s.GetURLCount())
	}
}

func TestHostileRobotsListsItself(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var n atomic.Int32
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fmt.Fprintf(w, "Sitemap: %s/robots.txt\n", srv.URL)
	})
	s := hNew()
	if _, err := hParse(t, s, srv.URL+"/robots.txt", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if n.Load() != 1 {
		t.Errorf("robots.txt requested %d times", n.Load())
	}
}

// CTX-4: a call without a deadline ends when a limit stops it.
func TestHostileChainDeeperThanDepthLimit(t *testing.T) {
	docs := map[string]string{}
	const n = 30
	for i := range n {
		docs[fmt.Sprintf("/i%d.xml", i)] = hIndex(fmt.Sprintf("/i%d.xml", i+1), fmt.Sprintf("/u%d.xml", i))
		docs[fmt.Sprintf("/u%d.xml", i)] = fmt.Sprintf(`<urlset %s><url><loc>/p%d</loc></url></urlset>`, hNS, i)
	}
	srv, h := hServe(t, docs)
	s := hNew() // depth 10
	if _, err := hParse(t, s, srv.URL+"/i0.xml", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := h.count["/i11.xml"]; got != 0 {
		t.Errorf("index beyond the depth limit requested %d times", got)
	}
	var depthErrs int
	for err := range s.Errors() {
		if errors.Is(err, sitemap.ErrMaxDepth) {
			depthErrs++
		}
	}
	if depthErrs != 1 {
		t.Errorf("got %d depth errors, want 1: %v", depthErrs, s.GetErrors())
	}
	// Levels 0..9 have URL sitemaps at levels 1..10.
	if s.GetURLCount() != 10 {
		t.Errorf("got %d URLs, want 10", s.GetURLCount())
	}
}

// hInProcess is a transport that serves requests from a handler in the
// same process, so that tens of thousands of requests take no sockets.
type hInProcess struct{ h http.Handler }

func (t hInProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

func TestHostileIndexOfFiftyThousandChildren(t *testing.T) {
	// Under the race detector 50,000 documents take minutes: the same test
	// runs on 5,000 there.
	children := 50_000
	if raceEnabled {
		children = 5_000
	}
	var idx strings.Builder
	idx.WriteString(`<sitemapindex ` + hNS + `>`)
	for i := range children {
		fmt.Fprintf(&idx, `<sitemap><loc>https://example.com/s%d.xml</loc></sitemap>`, i)
	}
	idx.WriteString(`</sitemapindex>`)
	index := idx.String()
	var requests atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path == "/index.xml" {
			io.WriteString(w, index)
			return
		}
		fmt.Fprintf(w, `<urlset %s><url><loc>%s/page</loc></url></urlset>`, hNS, strings.TrimSuffix(r.URL.Path, ".xml"))
	})
	s := hNew().SetHTTPClient(&http.Client{Transport: hInProcess{h}})
	heap, err := hParse(t, s, "https://example.com/index.xml", 60*time.Second)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := requests.Load(); got != int32(children)+1 {
		t.Errorf("%d requests, want %d", got, children+1)
	}
	if s.GetURLCount() != children || s.GetSitemapCount() != children {
		t.Errorf("got %d URLs and %d sitemaps, want %d each", s.GetURLCount(), s.GetSitemapCount(), children)
	}
	if n := s.GetErrorsCount(); n != 0 {
		t.Errorf("%d errors, first %v", n, s.GetErrors()[0])
	}
	if heap > 256*mib {
		t.Errorf("peak heap %d MiB", heap/mib)
	}
}

func TestHostileOneByteASecond(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-release:
				return
			case <-r.Context().Done():
				return
			case <-tick.C:
				w.Write([]byte(" "))
				w.(http.Flusher).Flush()
			}
		}
	})
	s := sitemap.New().SetFetchTimeout(1) // keep: the timeout is what ends it
	if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	hOneError[*sitemap.NetworkError](t, s, srv.URL+"/bad.xml")
	hCheckGood(t, s, srv)
}

func TestHostileBodyNeverEnds(t *testing.T) {
	srv := hSite(t, hEndless(`<urlset `+hNS+`>`, ' ', 1<<40))
	s := hNew().SetMaxResponseSize(4 * mib)
	if _, err := hParse(t, s, srv.URL+"/index.xml", 20*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ne := hOneError[*sitemap.NetworkError](t, s, srv.URL+"/bad.xml")
	if !errors.Is(ne, sitemap.ErrMaxResponseSize) {
		t.Errorf("error %v does not wrap ErrMaxResponseSize", ne)
	}
	hCheckGood(t, s, srv)
}

func TestHostileConnectionResetMidBody(t *testing.T) {
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n<urlset " + hNS + "><url><loc>/x</loc></url>")
		buf.Flush()
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0) // close with a reset
		}
		conn.Close()
	})
	s := hNew()
	if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	hOneError[*sitemap.NetworkError](t, s, srv.URL+"/bad.xml")
	if s.GetURLCount() != 2 {
		t.Errorf("got %d URLs, want only the 2 good ones", s.GetURLCount())
	}
	hCheckGood(t, s, srv)
}

func TestHostileContentLengthLargerThanBody(t *testing.T) {
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5000")
		io.WriteString(w, `<urlset `+hNS+`><url><loc>/x</loc></url></urlset>`)
	})
	s := hNew()
	if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ne := hOneError[*sitemap.NetworkError](t, s, srv.URL+"/bad.xml")
	if !errors.Is(ne, io.ErrUnexpectedEOF) {
		t.Errorf("error %v does not wrap io.ErrUnexpectedEOF", ne)
	}
	if s.GetURLCount() != 2 {
		t.Errorf("got %d URLs, want only the 2 good ones: a short body is no whole document", s.GetURLCount())
	}
}

func TestHostileRedirectLoop(t *testing.T) {
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/bad.xml", http.StatusFound)
	})
	s := hNew()
	if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	hOneError[*sitemap.NetworkError](t, s, srv.URL+"/bad.xml")
	hCheckGood(t, s, srv)
}

func TestHostileErrorStatuses(t *testing.T) {
	for _, code := range []int{http.StatusInternalServerError, http.StatusTooManyRequests, http.StatusNotFound} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			srv := hSite(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "3600")
				http.Error(w, "no", code)
			})
			s := hNew()
			if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			ne := hOneError[*sitemap.NetworkError](t, s, srv.URL+"/bad.xml")
			if !strings.Contains(ne.Error(), fmt.Sprint(code)) {
				t.Errorf("error %v does not name the status %d", ne, code)
			}
			hCheckGood(t, s, srv)
		})
	}
}

// hBadDocuments are documents served as /bad.xml that must each end in a
// *ParseError, costing only themselves.
var hBadDocuments = map[string]string{
	"html page":     "<!DOCTYPE html><html><head><title>Not found</title></head><body><a href=\"/x\">x</a></body></html>",
	"empty body":    "",
	"white space":   " \n\t\r\n   ",
	"utf-16":        "\xff\xfe<\x00u\x00r\x00l\x00s\x00e\x00t\x00>\x00",
	"utf-16 no bom": "<\x00?\x00x\x00m\x00l\x00",
}

func TestHostileDocuments(t *testing.T) {
	for name, body := range hBadDocuments {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", name, strict), func(t *testing.T) {
				srv := hSite(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
				s := hNew().SetStrict(strict)
				if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
					t.Fatalf("Parse: %v", err)
				}
				hOneError[*sitemap.ParseError](t, s, srv.URL+"/bad.xml")
				hCheckGood(t, s, srv)
				// As the document passed in, it fails Parse.
				_, err := hNew().SetStrict(strict).Parse("https://example.com/sitemap.xml", &body)
				var pe *sitemap.ParseError
				if !errors.As(err, &pe) {
					t.Errorf("Parse of the content returned %v, want a *ParseError", err)
				}
			})
		}
	}
}

func TestHostileInvalidUTF8AndNUL(t *testing.T) {
	for name, loc := range map[string]string{
		"invalid utf-8": "https://example.com/\xff\xfe",
		"nul":           "https://example.com/a\x00b",
	} {
		t.Run(name, func(t *testing.T) {
			body := `<urlset ` + hNS + `><url><loc>` + loc + `</loc></url></urlset>`
			srv := hSite(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
			s := hNew()
			if _, err := hParse(t, s, srv.URL+"/index.xml", 10*time.Second); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			// encoding/xml rejects both in either mode: the document is
			// no XML, and costs only itself.
			hOneError[*sitemap.ParseError](t, s, srv.URL+"/bad.xml")
			hCheckGood(t, s, srv)
		})
	}
}

// ADOPTED-9: no entity a DTD declares is expanded.
func TestHostileEntityExpansion(t *testing.T) {
	// A billion laughs: nothing a DTD declares is expanded.
	var dtd strings.Builder
	dtd.WriteString(`<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY lol "lol">`)
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&dtd, `<!ENTITY lol%d "%s">`, i, strings.Repeat(fmt.Sprintf("&lol%d;", i-1), 10))
	}
	dtd.WriteString(`]>`)
	body := dtd.String() + `<urlset ` + hNS + `><url><loc>https://example.com/&lol9;</loc></url><url><loc>https://example.com/plain</loc></url></urlset>`
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%v", strict), func(t *testing.T) {
			s := hNew().SetStrict(strict)
			var err error
			heap := uint64(0)
			hGuard(t, 10*time.Second, func() {
				heap = hPeakHeap(func() { _, err = s.Parse("https://example.com/sitemap.xml", &body) })
			})
			if heap > 32*mib {
				t.Errorf("peak heap %d MiB", heap/mib)
			}
			for _, u := range s.GetURLs() {
				if strings.Contains(u.Loc, "lollol") {
					t.Errorf("entity expanded into %.80s", u.Loc)
				}
			}
			if strict {
				var pe *sitemap.ParseError
				if !errors.As(err, &pe) {
					t.Errorf("strict mode: got %v, want a *ParseError for an undeclared entity", err)
				}
			} else if err != nil {
				t.Errorf("tolerant mode: %v", err)
			}
		})
	}
}

// CTX-4: only a deadline bounds the time of a call.
func TestHostileContextCutsLongCall(t *testing.T) {
	// A server that never answers; the context's deadline ends the call.
	block := make(chan struct{})
	defer close(block)
	srv := hSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // room for the good sitemap on a loaded machine
	defer cancel()
	s := hNew()
	var err error
	hGuard(t, 10*time.Second, func() { _, err = s.ParseContext(ctx, srv.URL+"/index.xml", nil) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ParseContext returned %v, want one wrapping context.DeadlineExceeded", err)
	}
	hCheckGood(t, s, srv)
}

// ---- Single tokens (issue 13, items 2 and 4): what the scanner skips goes
// through its fixed buffer, what it keeps is capped, and namespace
// declarations are capped and looked up in constant time.

// hRepeat writes prefix, unit repeated until n bytes of it have been
// written, then suffix, generated as it goes so that the test holds none of
// it: the heap measured is the parser's.
func hRepeat(prefix, unit string, n int, suffix string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.ReplaceAll(prefix, "{host}", r.Host))
		chunk := []byte(strings.Repeat(unit, max(1, (64<<10)/len(unit))))
		for written := 0; written < n; written += len(chunk) {
			if _, err := w.Write(chunk[:min(len(chunk), n-written)]); err != nil {
				return
			}
		}
		io.WriteString(w, strings.ReplaceAll(suffix, "{host}", r.Host))
	}
}

// hTokenCase is a hostile document of one huge token, served by bad: good
// tells whether the document is still read (its one URL, /kept, kept), or
// is a *ParseError in strict mode; strictBad, that strict mode rejects it
// all the same.
type hTokenCase struct {
	name      string
	bad       http.HandlerFunc
	good      bool
	strictBad bool
}

func hTokenCases() []hTokenCase {
	open := `<urlset ` + hNS + ` xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>http://{host}/kept</loc>`
	return []hTokenCase{
		// Issue 13 item 2: the value of an attribute nobody reads costs nothing.
		{"AttributeValueOfUnreadElement", hRepeat(open+`<x a="`, "v", 45*mib, `"/></url></urlset>`), true, false},
		// The attribute is read (an hreflang link): what is kept is capped.
		{"AttributeValueReadAndCapped", hRepeat(open+`<xhtml:link rel="alternate" hreflang="de" href="http://{host}/`, "v", 45*mib, `"/></url></urlset>`), true, false},
		{"UnquotedAttributeValue", hRepeat(open+`<x a=`, "v", 40*mib, ` /></url></urlset>`), true, true},
		{"MillionAttributes", hRepeat(open+`<x`, ` a=""`, 5_000_000, `/></url></urlset>`), true, false},
		{"Comment", hRepeat(open+`<!--`, "c", 40*mib, `--></url></urlset>`), true, false},
		{"ProcessingInstruction", hRepeat(open+`<?pi `, "p", 40*mib, `?></url></urlset>`), true, false},
		{"Doctype", hRepeat(`<!DOCTYPE urlset [<!-- `, "d", 40*mib, ` -->]>`+open+`</url></urlset>`), true, false},
		{"CDATAOfUnreadElement", hRepeat(open+`<x><![CDATA[`, "c", 40*mib, `]]></x></url></urlset>`), true, false},
		{"UnterminatedComment", hRepeat(open+`<!--`, "c", 40*mib, ``), false, false},
		{"UnterminatedProcessingInstruction", hRepeat(open+`<?pi `, "p", 40*mib, ``), false, false},
		{"UnterminatedDoctype", hRepeat(`<!DOCTYPE urlset [`, "d", 40*mib, ``), false, false},
		{"UnterminatedStartTag", hRepeat(open+`<x`, ` a="v"`, 40*mib, ``), false, false},
		{"UnterminatedAttributeValue", hRepeat(open+`<x a="`, "v", 40*mib, ``), false, false},
		// Declarations stay in scope, so they are capped.
		{"MillionNamespaceDeclarations", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `<urlset `+hNS)
			for i := range 1_000_000 {
				if _, err := fmt.Fprintf(w, ` xmlns:p%d="u"`, i); err != nil {
					return
				}
			}
			fmt.Fprintf(w, `><url><loc>http://%s/kept</loc></url></urlset>`, r.Host)
		}, false, false},
		{"MillionReadAttributes", hRepeat(open+`<xhtml:link`, ` href=""`, 5_000_000, `/></url></urlset>`), false, false},
		{"HugeElementName", hRepeat(open+`<x`, "x", 40*mib, `/></url></urlset>`), false, false},
	}
}

// hCheckTokenCase checks what s kept of the hostile document at url.
func hCheckTokenCase(t *testing.T, s *sitemap.S, c hTokenCase, url string) {
	t.Helper()
	kept := false
	for _, u := range s.GetURLs() {
		if u.Loc == strings.TrimSuffix(url, "/bad.xml")+"/kept" {
			kept = true
		}
	}
	good := c.good && !(c.strictBad && s.GetStrict())
	if good && !kept {
		t.Errorf("the URL of the document was lost; errors: %v", s.GetErrors())
	}
	if !good {
		var pe *sitemap.ParseError
		found := false
		for _, err := range s.GetErrors() {
			if errors.As(err, &pe) && strings.Contains(err.Error(), url) {
				found = true
			}
		}
		if !found && s.GetStrict() {
			t.Errorf("no *ParseError about %s; errors: %v", url, s.GetErrors())
		}
	}
}

// Issue 13 item 2: each single huge token costs a bounded heap, whatever
// its size (the target is 8 MiB above the baseline).
func TestHostileSingleHugeTokens(t *testing.T) {
	for _, c := range hTokenCases() {
		t.Run(c.name, func(t *testing.T) {
			srv := hSite(t, c.bad)
			for _, strict := range []bool{true, false} {
				s := hNew().SetStrict(strict)
				heap, err := hParse(t, s, srv.URL+"/index.xml", 60*time.Second)
				if err != nil {
					t.Fatalf("strict %v: Parse: %v", strict, err)
				}
				hCheckGood(t, s, srv)
				hCheckTokenCase(t, s, c, srv.URL+"/bad.xml")
				if heap > 8*mib {
					t.Errorf("strict %v: peak heap %.1f MiB, want under 8", strict, float64(heap)/mib)
				}
			}
		})
	}
}

// Issue 13 item 2: sixteen such documents parsed at once, the children of
// one index, stay under 64 MiB together.
func TestHostileSixteenHugeTokensAtOnce(t *testing.T) {
	cases := hTokenCases()
	mux := http.NewServeMux()
	var locs []string
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for i := range 16 {
		c := cases[i%len(cases)]
		path := fmt.Sprintf("/bad-%d.xml", i)
		mux.HandleFunc(path, c.bad)
		locs = append(locs, srv.URL+path)
	}
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, hIndex(locs...)) })
	s := hNew().SetMultiThread(true)
	heap, err := hParse(t, s, srv.URL+"/index.xml", 120*time.Second)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if heap > 64*mib {
		t.Errorf("peak heap %.1f MiB, want under 64", float64(heap)/mib)
	}
}

// Issue 13 item 2: eight children of an index, each one 20 MiB comment and
// nothing else kept, cost no more together than the buffers they read
// through.
func TestHostileEightChildrenOfHugeComments(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var locs []string
	for i := range 8 {
		path := fmt.Sprintf("/c-%d.xml", i)
		mux.HandleFunc(path, hRepeat(`<urlset `+hNS+`><!--`, "c", 20*mib, `--></urlset>`))
		locs = append(locs, srv.URL+path)
	}
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, hIndex(locs...)) })
	s := hNew()
	heap, err := hParse(t, s, srv.URL+"/index.xml", 120*time.Second)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if n := s.GetErrorsCount(); n != 0 {
		t.Errorf("errors: %v", s.GetErrors())
	}
	if heap > 8*mib {
		t.Errorf("peak heap %.1f MiB, want under 8", float64(heap)/mib)
	}
}

// hNSDoc is a urlset of 2,000 URLs after the namespace declarations decls
// writes, or, with decls nil, after a comment as long as they would be.
func hNSDoc(decls func(b *strings.Builder)) string {
	var d strings.Builder
	if decls != nil {
		decls(&d)
	}
	var b strings.Builder
	b.WriteString(`<urlset ` + hNS + `>`)
	if decls == nil {
		b.WriteString(`<!--` + strings.Repeat("x", 2_000_000) + `-->`)
	} else {
		b.WriteString(d.String())
	}
	for i := range 2000 {
		fmt.Fprintf(&b, `<url><loc>https://example.com/page-%d</loc><lastmod>2024-01-02</lastmod></url>`, i)
	}
	return b.String()
}

// Issue 13 item 4: a prefix is found in constant time however many
// bindings are in scope. Compare the ns/op of the cases with Ordinary: a
// document of 2,000 URLs under 250 bindings (as many as the caps allow,
// nested four deep), and one whose 2,000 URLs declare 50 namespaces each
// (100,000 declarations), cost about what the same URLs cost after a
// comment; 100,000 declarations on one element end at the cap at once.
func BenchmarkHostileNamespaceDeclarations(b *testing.B) {
	nested := func(d *strings.Builder) {
		for e := range 4 {
			d.WriteString("<x")
			for i := range 62 {
				fmt.Fprintf(d, ` xmlns:p%d_%d="https://example.com/ns/%d/%d"`, e, i, e, i)
			}
			d.WriteString(">")
		}
	}
	cases := []struct {
		name string
		doc  string
	}{
		{"Ordinary", hNSDoc(nil)},
		{"250InScope", hNSDoc(nested)},
		{"50OnEachURL", strings.ReplaceAll(hNSDoc(func(*strings.Builder) {}), "<url>", func() string {
			var d strings.Builder
			d.WriteString("<url")
			for i := range 50 {
				fmt.Fprintf(&d, ` xmlns:q%d="https://example.com/q/%d"`, i, i)
			}
			return d.String() + ">"
		}())},
		{"100000OnTheRoot", strings.Replace(hNSDoc(func(*strings.Builder) {}), hNS, func() string {
			var d strings.Builder
			d.WriteString(hNS)
			for i := range 100_000 {
				fmt.Fprintf(&d, ` xmlns:p%d="u"`, i)
			}
			return d.String()
		}(), 1)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.doc)))
			s := hNew()
			for b.Loop() {
				s.Parse("https://example.com/sitemap.xml", &c.doc)
			}
			b.ReportMetric(float64(s.GetURLCount()), "urls")
		})
	}
}

// Issue 13 item 2, a sibling: white space in an end tag is skipped through
// the buffer too.
func TestHostileEndTagOfHugeSpace(t *testing.T) {
	srv := hSite(t, hRepeat(`<urlset `+hNS+`><url><loc>http://{host}/kept</loc></url`, " ", 40*mib, `></urlset>`))
	for _, strict := range []bool{true, false} {
		s := hNew().SetStrict(strict)
		heap, err := hParse(t, s, srv.URL+"/index.xml", 60*time.Second)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		hCheckGood(t, s, srv)
		hCheckTokenCase(t, s, hTokenCase{good: true}, srv.URL+"/bad.xml")
		if heap > 8*mib {
			t.Errorf("strict %v: peak heap %.1f MiB, want under 8", strict, float64(heap)/mib)
		}
	}
}

// Issue 13 item 4: 100,000 declarations on the root end the document at
// the cap, with an error that says so; spread over its 2,000 URLs (50 on
// each, within the caps) they are all read, and every URL is kept.
func TestHostileHundredThousandNamespaceDeclarations(t *testing.T) {
	decls := func(n int, f string) string {
		var d strings.Builder
		for i := range n {
			fmt.Fprintf(&d, f, i)
		}
		return d.String()
	}
	urls := func(host, open string) string {
		var b strings.Builder
		for i := range 2000 {
			fmt.Fprintf(&b, `%s<loc>http://%s/page-%d</loc></url>`, open, host, i)
		}
		return b.String()
	}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("/root.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset `+hNS+decls(100_000, ` xmlns:p%d="u"`)+`>`+urls(r.Host, `<url>`)+`</urlset>`)
	})
	mux.HandleFunc("/spread.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset `+hNS+`>`+urls(r.Host, `<url`+decls(50, ` xmlns:q%d="https://example.com/q"`)+`>`)+`</urlset>`)
	})
	mux.HandleFunc("/deep.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset `+hNS+`>`+strings.Repeat(`<x`+decls(60, ` xmlns:q%d="https://example.com/q"`)+`>`, 5)+urls(r.Host, `<url>`)+`</urlset>`)
	})
	for _, c := range []struct {
		path, err string
		urls      int
	}{
		{"/root.xml", "element declares more than 64 namespaces", 0},
		{"/spread.xml", "", 2000},
		{"/deep.xml", "more than 256 namespace bindings in scope", 0},
	} {
		s := hNew()
		var err error
		hGuard(t, 60*time.Second, func() { _, err = s.Parse(srv.URL+c.path, nil) })
		if n := s.GetURLCount(); n != c.urls {
			t.Errorf("%s: %d URLs, want %d", c.path, n, c.urls)
		}
		var pe *sitemap.ParseError
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: Parse: %v", c.path, err)
		case c.err != "" && !errors.As(err, &pe):
			t.Errorf("%s: Parse returned %v, want a *ParseError", c.path, err)
		case c.err != "" && !strings.Contains(pe.Error(), c.err):
			t.Errorf("%s: error %q does not say %q", c.path, pe, c.err)
		}
	}
}
