package sitemap_test

// The torture suite: one named test a hostile input, each built in code,
// each guarded by a timer so that a hang fails instead of blocking, each
// checking the typed error and sentinel it must end in, that what was good
// in the other documents is kept, and that the heap stays bounded.

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
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

// --- translate: the listing limit where it is spent, a context seen while a
// document is parsed, the complete entries of a truncated document (issue 13,
// items 3, 5 and 8) ----------------------------------------------------------

// hLines reads head, then the n lines format gives for 0 to n-1, then tail,
// making them as it goes: a document of any size that the test never holds.
type hLines struct {
	head, format, tail string
	n, i               int
	buf                []byte
}

func (r *hLines) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		switch {
		case r.head != "":
			r.buf, r.head = []byte(r.head), ""
		case r.i < r.n:
			for ; r.i < r.n && len(r.buf) < 32<<10; r.i++ {
				r.buf = fmt.Appendf(r.buf, r.format, r.i)
			}
		case r.tail != "":
			r.buf, r.tail = []byte(r.tail), ""
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// hGenerated is a transport that answers path with the body gen makes, and
// every other request with a urlset of one page, counting the requests.
type hGenerated struct {
	path     string
	gen      func() io.Reader
	requests atomic.Int32
}

func (g *hGenerated) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	g.requests.Add(1)
	body := io.Reader(strings.NewReader(`<urlset ` + hNS + `><url><loc>https://example.com/page` + r.URL.Path + `</loc></url></urlset>`))
	if r.URL.Path == g.path {
		body = g.gen()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(body), ContentLength: -1, Request: r}, nil
}

// hParseLive parses url (with content, when not nil) and returns the peak
// of the live heap while it ran, above the live heap before: unlike the heap
// in use, it does not count the garbage that the heap of the other tests
// lets the collector leave, so a bound of a few MiB holds in any company.
func hParseLive(t *testing.T, s *sitemap.S, url string, content *string) (heap uint64, err error) {
	t.Helper()
	hGuard(t, 120*time.Second, func() {
		heap = hPeakOf(hLiveHeap, 10*time.Millisecond, func() { _, err = s.Parse(url, content) })
	})
	t.Logf("peak live heap above baseline: %.1f MiB", float64(heap)/mib)
	return heap, err
}

// Issue 13 item 3, MAXSITEMAPS-12, MAXSITEMAPS-7: the listing limit is
// counted as each sitemap is listed, so a document that names millions of
// sitemaps costs what the limit keeps, not what it names: the sitemaps to
// follow are bounded the same way.
func TestHostileMillionsOfSitemapsListed(t *testing.T) {
	const lines = 700_000 // about 28 MB of robots.txt, 45 MB of index
	for _, c := range []struct{ name, path, head, format, tail string }{
		{"robots.txt", "/robots.txt", "User-agent: *\n", "Sitemap: https://example.com/s%07d.xml\n", ""},
		{"index", "/index.xml", `<sitemapindex ` + hNS + `>`, `<sitemap><loc>https://example.com/s%07d.xml</loc></sitemap>`, `</sitemapindex>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The live heap counts what goroutines that other tests left
			// behind still hold: the least of three tries is the call's.
			var tr *hGenerated
			var s *sitemap.S
			heap := uint64(1 << 62)
			for try := 0; try < 3 && heap > 8*mib; try++ {
				tr = &hGenerated{path: c.path, gen: func() io.Reader {
					return &hLines{head: c.head, format: c.format, tail: c.tail, n: lines}
				}}
				s = hNew().SetMaxSitemaps(50).SetMultiThread(false).SetHTTPClient(&http.Client{Transport: tr})
				h, err := hParseLive(t, s, "https://example.com"+c.path, nil)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				heap = min(heap, h)
			}
			sms := s.GetSitemaps()
			if len(sms) != 50 || sms[0].Loc != "https://example.com/s0000000.xml" || sms[49].Loc != "https://example.com/s0000049.xml" {
				t.Errorf("%d sitemaps listed, want the first 50", len(sms))
			}
			if got := tr.requests.Load(); got != 51 {
				t.Errorf("%d requests, want the document and 50 sitemaps", got)
			}
			if s.GetURLCount() != 50 {
				t.Errorf("%d URLs, want one of each of the 50 sitemaps", s.GetURLCount())
			}
			limits := 0
			for _, e := range s.GetErrors() {
				if errors.Is(e, sitemap.ErrMaxSitemaps) {
					limits++
				}
			}
			if limits != 1 || s.GetErrorsCount() != 1 {
				t.Errorf("errors %v, want the sitemap limit once", s.GetErrors())
			}
			if heap > 8*mib {
				t.Errorf("peak heap %.1f MiB, want under 8 MiB", float64(heap)/mib)
			}
		})
	}
}

// hRealShaped is a urlset as generators write them: a declaration, the
// extension namespaces, dates, images with CDATA, alternates, comments and
// references. Every entry begins with a bare <url>.
func hRealShaped(n int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset ` + hNS + ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	for i := range n {
		if i%3 == 1 {
			b.WriteString("  <!-- generated -->\n")
		}
		fmt.Fprintf(&b, "  <url>\n    <loc>https://example.com/p/%d?a=1&amp;b=2</loc>\n    <lastmod>2024-05-%02dT10:00:00+00:00</lastmod>\n", i, i%28+1)
		fmt.Fprintf(&b, "    <changefreq>weekly</changefreq>\n    <priority>0.%d</priority>\n", i%10)
		fmt.Fprintf(&b, "    <xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://example.com/de/p/%d\"/>\n", i)
		fmt.Fprintf(&b, "    <image:image><image:loc>https://example.com/i/%d.jpg</image:loc><image:title><![CDATA[Picture %d & more]]></image:title></image:image>\n", i, i)
		b.WriteString("  </url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// hTruncatedWant is what a document cut to prefix yields: the entries
// complete in it, whether an entry is open at the cut, and whether the root
// element has started.
func hTruncatedWant(prefix string) (complete int, open, rooted bool) {
	complete = strings.Count(prefix, "</url>")
	open = strings.Count(prefix, "<url>") > complete
	i := strings.Index(prefix, "<urlset")
	rooted = i >= 0 && strings.Contains(prefix[i:], ">")
	return complete, open, rooted
}

// hStreamAll runs a streaming call and returns its URLs and its errors.
func hStreamAll(s *sitemap.S, ctx context.Context, url string, content *string) (locs []string, errs []error) {
	for u, err := range s.Stream(ctx, url, content) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		locs = append(locs, u.Loc)
	}
	return locs, errs
}

// hOneByteBody is a transport that serves body one byte a read.
type hOneByteBody struct{ body string }

func (b hOneByteBody) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: -1, Request: r,
		Body: io.NopCloser(iotest.OneByteReader(strings.NewReader(b.body)))}, nil
}

// Issue 13 item 8, TOLERANT-13, STREAM: a document cut at any byte keeps, in
// tolerant mode, every entry complete before the cut, in Parse and Stream
// alike, content passed in or served a byte at a time; a cut inside an entry
// is one *ParseError naming the document and wrapping io.ErrUnexpectedEOF,
// and a cut with no entry open (only end tags missing) is no error. Strict
// mode rejects every cut document whole: Parse keeps nothing, and Stream's
// URLs, handed on already, are followed by the document's *ParseError.
func TestHostileDocumentCutAtEveryByte(t *testing.T) {
	const url = "https://example.com/sitemap.xml"
	doc := hRealShaped(6)
	step := 1
	if raceEnabled {
		step = 7
	}
	for cut := 0; cut <= len(doc); cut += step {
		prefix := doc[:cut]
		complete, open, rooted := hTruncatedWant(prefix)
		if cut == len(doc) {
			complete, open = 6, false
		}
		whole := cut >= strings.LastIndex(doc, "</urlset>")+len("</urlset>")
		for _, strict := range []bool{false, true} {
			for _, fetched := range []bool{false, true} {
				name := fmt.Sprintf("cut %d strict=%v fetched=%v", cut, strict, fetched)
				newS := func() *sitemap.S {
					s := sitemap.New().SetStrict(strict)
					if fetched {
						s.SetHTTPClient(&http.Client{Transport: hOneByteBody{prefix}})
					}
					return s
				}
				var content *string
				if !fetched {
					content = &prefix
				}
				wantURLs := complete
				wantErr := open || !rooted || strict && !whole
				if strict && !whole {
					wantURLs = 0
				}
				if !rooted {
					wantURLs = 0
				}
				// Parse.
				s := newS()
				_, err := s.Parse(url, content)
				var perr *sitemap.ParseError
				switch {
				case !wantErr && err != nil:
					t.Fatalf("%s: Parse: %v, want no error", name, err)
				case wantErr && (!errors.As(err, &perr) || perr.URL != url):
					t.Fatalf("%s: Parse: %v, want a *ParseError naming the document", name, err)
				case wantErr && !strict && rooted && !errors.Is(err, io.ErrUnexpectedEOF):
					t.Fatalf("%s: Parse: %v does not wrap io.ErrUnexpectedEOF", name, err)
				}
				if n := s.GetURLCount(); n != wantURLs {
					t.Fatalf("%s: Parse kept %d URLs, want %d", name, n, wantURLs)
				}
				if wantErr && (s.GetErrorsCount() != 1 || s.GetErrors()[0] != err) {
					t.Fatalf("%s: Parse recorded %v, want the one error it returned", name, s.GetErrors())
				}
				// Stream: in strict mode too, the URLs handed on before the
				// document turned out broken.
				locs, errs := hStreamAll(newS(), context.Background(), url, content)
				wantStream := complete
				if !rooted {
					wantStream = 0
				}
				if len(locs) != wantStream {
					t.Fatalf("%s: Stream gave %d URLs, want %d", name, len(locs), wantStream)
				}
				if wantErr != (len(errs) == 1) || len(errs) > 1 {
					t.Fatalf("%s: Stream gave errors %v", name, errs)
				}
				if len(errs) == 1 && (!errors.As(errs[0], &perr) || perr.URL != url || err == nil || errs[0].Error() != err.Error()) {
					t.Fatalf("%s: Stream gave %v, Parse %v: want the same *ParseError", name, errs[0], err)
				}
			}
		}
	}
}

// Issue 13 item 8, TOLERANT-13: a large sitemap cut in two keeps every
// entry before the cut, and the sitemaps after it are read as ever.
func TestHostileLargeSitemapCutInHalf(t *testing.T) {
	doc := hRealShaped(11_856)
	half := doc[:len(doc)/2]
	complete, _, _ := hTruncatedWant(half)
	srv, _ := hServe(t, map[string]string{
		"/half.xml":  half,
		"/other.xml": ct1URLSet("https://example.com/other"),
	})
	index := hIndex(srv.URL+"/half.xml", srv.URL+"/other.xml")
	s := hNew().SetMultiThread(false)
	_, err := s.Parse(srv.URL+"/index.xml", &index)
	if err != nil {
		t.Fatalf("Parse: %v, want nil: the index was read whole", err)
	}
	perr := hOneError[*sitemap.ParseError](t, s, srv.URL+"/half.xml")
	if !errors.Is(perr, io.ErrUnexpectedEOF) || s.GetErrorsCount() != 1 {
		t.Errorf("errors %v, want the cut of /half.xml alone, wrapping io.ErrUnexpectedEOF", s.GetErrors())
	}
	if n := s.GetURLCount(); n != complete+1 || complete < 5_000 {
		t.Errorf("%d URLs, want the %d complete entries and the other sitemap's", n, complete)
	}
}

// hDense is a urlset of n URLs whose entries are all entryLen bytes long.
func hDense(n int) (doc string, entryLen int) {
	var b strings.Builder
	b.WriteString(`<urlset ` + hNS + `>`)
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>https://example.com/p%07d</loc></url>", i)
	}
	b.WriteString(`</urlset>`)
	return b.String(), len(fmt.Sprintf("<url><loc>https://example.com/p%07d</loc></url>", 0))
}

// The parse stage reads its input a buffer of this size at a time (the
// scanner's), and a streaming call queues at most this many URLs ahead of
// its loop (16 batches in the channel and the one being filled, of 128).
const (
	hParseBuffer = 64 << 10
	hStreamAhead = 17 * 128
)

// Issue 13 item 5, CTX-11: a context that ends while content passed in is
// parsed stops the parse at its next read, within one buffer of input: the
// loop of a streaming call that cancels at its 1,000th URL gets no more than
// what was queued and one buffer's entries more, then the one *ParseError of
// a call cut short. Before, the call went on to the end of the document.
func TestHostileContextEndsWhileContentIsStreamed(t *testing.T) {
	const url = "https://example.com/sitemap.xml"
	doc, entryLen := hDense(200_000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n int
	var errs []error
	hGuard(t, 60*time.Second, func() {
		for u, err := range hNew().Stream(ctx, url, &doc) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if n++; n == 1000 {
				cancel() // the gate: the loop is at a known URL
			}
			_ = u
		}
	})
	most := 1000 + hStreamAhead + hParseBuffer/entryLen + 1
	t.Logf("%d URLs handed on, at most %d allowed", n, most)
	if n > most {
		t.Errorf("%d URLs after a cancel at the 1,000th: the parse did not stop within a buffer (at most %d)", n, most)
	}
	var perr *sitemap.ParseError
	if len(errs) != 1 || !errors.As(errs[0], &perr) || perr.URL != url || perr.Err != context.Canceled {
		t.Errorf("errors %v, want the one *ParseError of a call cut short", errs)
	}
}

// hGateBody reads body, and calls gate once the first n bytes have been
// read.
type hGateBody struct {
	r    io.Reader
	n    int
	gate func()
}

func (b *hGateBody) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return b.r.Read(p)
	}
	k, err := b.r.Read(p[:min(len(p), b.n)])
	if b.n -= k; b.n <= 0 {
		b.gate()
	}
	return k, err
}

// hGatedTransport serves body through an hGateBody.
type hGatedTransport struct {
	body string
	n    int
	gate func()
}

func (g hGatedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: -1, Request: r,
		Body: io.NopCloser(&hGateBody{r: strings.NewReader(g.body), n: g.n, gate: g.gate})}, nil
}

// Issue 13 item 5, CTX-11, CTX-9: a context that ends while a fetched
// document is parsed stops the parse at the next read: the URLs kept are
// exactly the entries complete in the bytes read before, and the call
// returns the *NetworkError of its root's request, in progress, alone.
func TestHostileContextEndsWhileABodyIsParsed(t *testing.T) {
	doc, entryLen := hDense(100_000)
	for _, gzipped := range []bool{false, true} {
		t.Run(fmt.Sprint("gzip=", gzipped), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			body, read := doc, 300_000 // bytes read before the cancel
			if gzipped {
				var b bytes.Buffer
				z := gzip.NewWriter(&b)
				io.WriteString(z, doc)
				z.Close()
				// Compressed, the read-ahead goes on inflating past the
				// gate, which the parse stage must not read once the
				// context has ended: it reads at most what the bytes
				// before the gate inflate to, and the block that a read
				// that began before the cancel takes.
				body, read = b.String(), b.Len()/3
			}
			s := hNew().SetHTTPClient(&http.Client{Transport: hGatedTransport{body: body, n: read, gate: cancel}})
			var err error
			hGuard(t, 60*time.Second, func() { _, err = s.ParseContext(ctx, "https://example.com/sitemap.xml", nil) })
			var nerr *sitemap.NetworkError
			if !errors.As(err, &nerr) || !errors.Is(err, context.Canceled) || s.GetErrorsCount() != 1 || s.GetErrors()[0] != err {
				t.Fatalf("ParseContext: %v, errors %v; want the root's *NetworkError alone", err, s.GetErrors())
			}
			n := s.GetURLCount()
			t.Logf("%d of 100,000 URLs kept", n)
			if !gzipped && n != (read-len(`<urlset `+hNS+`>`))/entryLen {
				t.Errorf("%d URLs kept, want the %d complete in the %d bytes read", n, (read-len(`<urlset `+hNS+`>`))/entryLen, read)
			}
			if gzipped {
				z, _ := gzip.NewReader(strings.NewReader(body[:read]))
				inflated, _ := io.Copy(io.Discard, z)
				if most := (int(inflated) + hParseBuffer) / entryLen; n > most {
					t.Errorf("%d URLs kept, want at most %d: the parse read on after the context ended", n, most)
				}
			}
			locs := locsOf(s.GetURLs())
			for i, l := range locs {
				if l != fmt.Sprintf("https://example.com/p%07d", i) {
					t.Fatalf("URL %d is %s: the URLs kept are not those before the cut", i, l)
				}
			}
		})
	}
}

// hCountdown is a context that ends, as canceled, once its Err has been
// asked after more times: a gate that a call on content passed in, which
// calls nothing of the caller's, cannot pass by.
type hCountdown struct {
	context.Context
	left atomic.Int64
	done chan struct{}
	once sync.Once
}

func (c *hCountdown) Err() error {
	if c.left.Add(-1) < 0 {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

func (c *hCountdown) Done() <-chan struct{} { return c.done }

// Issue 13 item 5, CTX-11: Parse on content passed in looks at its context
// while it parses, not only between documents: a context that ends during
// the parse of a large document ends the call with the one *ParseError of a
// call cut short, and the complete entries read until then are kept.
func TestHostileContextEndsWhileContentIsParsed(t *testing.T) {
	doc, _ := hDense(200_000)
	ctx := &hCountdown{Context: context.Background(), done: make(chan struct{})}
	ctx.left.Store(20)
	s := hNew()
	var err error
	hGuard(t, 60*time.Second, func() { _, err = s.ParseContext(ctx, "https://example.com/sitemap.xml", &doc) })
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) || perr.Err != context.Canceled || s.GetErrorsCount() != 1 {
		t.Fatalf("ParseContext: %v, errors %v; want the one *ParseError of a call cut short", err, s.GetErrors())
	}
	n := s.GetURLCount()
	t.Logf("%d of 200,000 URLs kept", n)
	if n == 0 || n >= 200_000 {
		t.Errorf("%d URLs kept, want those read before the context ended", n)
	}
	for i, l := range locsOf(s.GetURLs()) {
		if l != fmt.Sprintf("https://example.com/p%07d", i) {
			t.Fatalf("URL %d is %s: the URLs kept are not those before the cut", i, l)
		}
	}
}

// Issue 13 item 8 (a sibling), TOLERANT-13: XML that tolerant mode cannot
// read past, anywhere in a document (a generator that crashed and wrote its
// error into the sitemap), costs the entry it breaks and what follows, not
// the entries before it: they are kept, and the fault is one *ParseError
// naming the document, with the scanner's *xml.SyntaxError as its cause.
// Strict mode rejects such a document whole. Before, tolerant mode kept
// nothing of any of these documents.
func TestHostileGeneratorCrashMidDocument(t *testing.T) {
	const url = "https://example.com/sitemap.xml"
	entry := func(l string) string { return `<url><loc>https://example.com/` + l + `</loc></url>` }
	for _, c := range []struct {
		name, doc string
		kept      int
	}{
		// Tolerant mode ends the elements that </lo> does not match, as
		// encoding/xml does, the entry of b with them.
		{"mismatched end tag", `<urlset ` + hNS + `>` + entry("a") + `<url><loc>https://example.com/b</lo></url>` + entry("c") + `</urlset>`, 2},
		{"broken start tag", `<urlset ` + hNS + `>` + entry("a") + entry("b") + `<url <loc>https://example.com/c</loc></url></urlset>`, 2},
		{"NUL in an entry", `<urlset ` + hNS + `>` + entry("a") + "<url><loc>https://example.com/b\x00</loc></url></urlset>", 1},
		{"error message after the entries", `<urlset ` + hNS + `>` + entry("a") + entry("b") + "\nFatal error: <sitemap.php> line 42 < 43\n", 2},
		{"garbage after the root", `<urlset ` + hNS + `>` + entry("a") + entry("b") + entry("c") + "</urlset>\n<<<", 3},
		{"nesting too deep", `<urlset ` + hNS + `>` + entry("a") + entry("b") + strings.Repeat("<x>", 1000), 2},
	} {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s strict=%v", c.name, strict), func(t *testing.T) {
				doc := c.doc
				s := sitemap.New().SetStrict(strict)
				_, err := s.Parse(url, &doc)
				var perr *sitemap.ParseError
				var se *xml.SyntaxError
				if !errors.As(err, &perr) || perr.URL != url || !errors.As(err, &se) && !strings.Contains(err.Error(), "nested more than") {
					t.Fatalf("Parse: %v, want a *ParseError naming the document, caused by a syntax error or the nesting", err)
				}
				want := c.kept
				if strict {
					want = 0
				}
				if n := s.GetURLCount(); n != want || s.GetErrorsCount() != 1 {
					t.Errorf("%d URLs and errors %v, want %d URLs and the one error", n, s.GetErrors(), want)
				}
				for i, l := range locsOf(s.GetURLs()) {
					if l != "https://example.com/"+string(rune('a'+i)) {
						t.Errorf("URL %d is %s", i, l)
					}
				}
			})
		}
	}
}

// FuzzHostileCutKeepsAPrefix: in tolerant mode, an XML document cut anywhere
// keeps a prefix of the URLs that the whole document gives (TOLERANT-13),
// and Parse and Stream give the same URLs and the same errors. Issue 13
// item 8.
func FuzzHostileCutKeepsAPrefix(f *testing.F) {
	f.Add(hRealShaped(3), uint16(700))
	f.Add(`<urlset `+hNS+`><url><loc>https://example.com/a</loc><url><loc>https://example.com/b</loc></url></urlset>`, uint16(60))
	f.Add(`<rss version="2.0"><channel><item><link>https://example.com/a</link></item><item><link>https://example.com/b</link></item></channel></rss>`, uint16(90))
	f.Add(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/a"/></entry><entry><link href="https://example.com/b"/></entry></feed>`, uint16(100))
	// Nothing is fetched: only the document passed in is read.
	newS := func() *sitemap.S { return sitemap.New().SetFollow([]string{`^$`}) }
	f.Fuzz(func(t *testing.T, doc string, cut uint16) {
		const url = "https://example.com/sitemap.xml"
		if !strings.HasPrefix(strings.TrimLeft(doc, " \t\r\n"), "<") {
			return // a text sitemap's last line, cut, is a shorter URL
		}
		s, err := newS().Parse(url, &doc)
		if err != nil {
			return
		}
		whole := locsOf(s.GetURLs())
		prefix := doc[:int(cut)%(len(doc)+1)]
		s, _ = newS().Parse(url, &prefix)
		got := locsOf(s.GetURLs())
		if len(got) > len(whole) || !slices.Equal(got, whole[:len(got)]) {
			t.Fatalf("cut to %d bytes: URLs %q are no prefix of the whole document's %q", len(prefix), got, whole)
		}
		locs, errs := hStreamAll(newS(), context.Background(), url, &prefix)
		if !slices.Equal(locs, got) {
			t.Fatalf("Stream gave %q, Parse %q", locs, got)
		}
		if !slices.Equal(messagesOf(errs), messagesOf(s.GetErrors())) {
			t.Fatalf("Stream gave errors %q, Parse %q", messagesOf(errs), messagesOf(s.GetErrors()))
		}
	})
}

// Issue 13 item 5 (a sibling), CTX-11: a text sitemap that the context stops
// in the middle of a line keeps the lines complete before the stop, and not
// the beginning of the line cut in two, which is no URL of the document.
func TestHostileContextEndsInsideATextLine(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "https://example.com/p%07d\n", i)
	}
	lineLen := len("https://example.com/p0000000\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := hNew().SetHTTPClient(&http.Client{Transport: hGatedTransport{body: b.String(), n: 100*lineLen + 12, gate: cancel}})
	var err error
	hGuard(t, 60*time.Second, func() { _, err = s.ParseContext(ctx, "https://example.com/sitemap.txt", nil) })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ParseContext: %v, want the call cut short", err)
	}
	locs := locsOf(s.GetURLs())
	if len(locs) != 100 {
		t.Errorf("%d URLs kept, want the 100 complete lines", len(locs))
	}
	for i, l := range locs {
		if l != fmt.Sprintf("https://example.com/p%07d", i) {
			t.Errorf("URL %d is %q, no line of the document", i, l)
		}
	}
}

// Issue 13 item 8, TOLERANT-13: an index passed in that is cut inside an
// entry lists the sitemaps of its complete entries, which are followed;
// Parse returns the cut, and the URLs of those sitemaps stay in GetURLs.
func TestHostileIndexPassedInCutInsideAnEntry(t *testing.T) {
	srv, _ := hServe(t, map[string]string{
		"/a.xml": ct1URLSet("https://example.com/a"),
		"/b.xml": ct1URLSet("https://example.com/b"),
	})
	index := hIndex(srv.URL+"/a.xml", srv.URL+"/b.xml", srv.URL+"/c.xml")
	index = index[:strings.Index(index, "/c.xml")]
	s := hNew().SetMultiThread(false)
	_, err := s.Parse(srv.URL+"/index.xml", &index)
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) || perr.URL != srv.URL+"/index.xml" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Parse: %v, want the index's *ParseError wrapping io.ErrUnexpectedEOF", err)
	}
	if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{"https://example.com/a", "https://example.com/b"}) {
		t.Errorf("URLs %q, want those of the two sitemaps listed whole", got)
	}
	if s.GetSitemapCount() != 2 || s.GetErrorsCount() != 1 || s.GetErrors()[0] != err {
		t.Errorf("%d sitemaps, errors %v; want 2 and the one returned", s.GetSitemapCount(), s.GetErrors())
	}
}
