package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gositemap/sitemap"
)

// The helpers of the black-box tests, one of each: a server on loopback
// (newServer, serve, serveDocs), a urlset and an index builder (urlset,
// index, and indexDocs for a site of an index and its urlsets), a guard
// against hangs (guard and recv, bounded by guardTimeout), a gate that holds
// requests (newGate), and the one transport of the tests (web), which
// answers in the process, passes requests on to a
// loopback server, or refuses them. A helper that serves the tests of one
// file only lives in that file.

// sitemapNS is the namespace of the sitemaps.org protocol.
const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// server is an httptest server on loopback with one handler per path. It
// logs every request (path, User-Agent), counts the requests in flight and
// answers 404 for a path it does not know.
type server struct {
	*httptest.Server

	// stop is closed when the test ends, before the server is closed, so
	// that handlers that block let go.
	stop chan struct{}

	mu       sync.Mutex
	handlers map[string]http.HandlerFunc // by path; the test may add to it before the requests
	headers  map[string]http.Header      // of the documents of docs, by path
	fallback http.HandlerFunc            // answers what no handler or document does; nil is 404
	docs     map[string]string           // read at each request, for a path without a route (serveDocs)
	log      []string                    // the path (with query) of every request, in order
	agents   []string                    // the User-Agent of every request, in order
	hosts    []string                    // the Host and path of every request, in order

	inflight, maxInflight atomic.Int64
}

// newServer starts a server with no routes; it is closed when the test
// ends.
func newServer(t testing.TB) *server {
	t.Helper()
	s := &server{stop: make(chan struct{}), handlers: map[string]http.HandlerFunc{}, headers: map[string]http.Header{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.stop) }) // runs first
	return s
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	n := s.inflight.Add(1)
	defer s.inflight.Add(-1)
	for {
		m := s.maxInflight.Load()
		if n <= m || s.maxInflight.CompareAndSwap(m, n) {
			break
		}
	}
	s.mu.Lock()
	s.log = append(s.log, r.URL.RequestURI())
	s.agents = append(s.agents, r.Header.Get("User-Agent"))
	s.hosts = append(s.hosts, r.Host+r.URL.Path)
	h := s.handlers[r.URL.Path]
	header := s.headers[r.URL.Path]
	fallback := s.fallback
	doc, isDoc := s.docs[r.URL.Path]
	s.mu.Unlock()
	switch {
	case h != nil:
		h(w, r)
	case isDoc:
		for k, v := range header {
			w.Header()[k] = v
		}
		io.WriteString(w, doc)
	case fallback != nil:
		fallback(w, r)
	default:
		http.NotFound(w, r)
	}
}

// serveDocs starts a server that answers each path of docs with its
// document, looked up at each request, so that the test may add documents
// to docs once the server is running (under no lock: before the requests).
// With t nil (an Example), the caller closes the server.
func serveDocs(t testing.TB, docs map[string]string) *server {
	var s *server
	if t == nil {
		s = &server{stop: make(chan struct{}), handlers: map[string]http.HandlerFunc{}, headers: map[string]http.Header{}}
		s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	} else {
		t.Helper()
		s = newServer(t)
	}
	s.docs = docs
	return s
}

// newInProcessServer returns a server as newServer's, with no socket: it
// answers at http://example.test through the client it returns (see web),
// in the process, so that a test in a testing/synctest bubble can run a
// call against it and wait until every goroutine of it is blocked.
func newInProcessServer(t testing.TB) (*server, *http.Client) {
	s := &server{stop: make(chan struct{}), handlers: map[string]http.HandlerFunc{}, headers: map[string]http.Header{}}
	s.Server = &httptest.Server{URL: "http://example.test"} // never started: its URL only
	t.Cleanup(func() { close(s.stop) })
	return s, (&web{h: http.HandlerFunc(s.serve)}).Client()
}

// Handle serves path with h.
func (s *server) Handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[path] = h
}

// Doc serves body at path with status 200.
func (s *server) Doc(path, body string) { s.Bytes(path, []byte(body)) }

// Bytes serves body at path with status 200.
func (s *server) Bytes(path string, body []byte) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
}

// Trickle serves body at path one byte per Write, each flushed, so that the
// client gets it in as many reads as there are bytes.
func (s *server) Trickle(path string, body []byte) {
	s.Handle(path, trickleHandler(body))
}

func trickleHandler(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f := w.(http.Flusher)
		for i := range body {
			if _, err := w.Write(body[i : i+1]); err != nil {
				return
			}
			f.Flush()
		}
	}
}

// Redirect answers path with a 302 to target.
func (s *server) Redirect(path, target string) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	})
}

// Status answers path with the given status code.
func (s *server) Status(path string, code int) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
}

// Block answers path only when the request is cancelled or the test ends;
// it sends the path to arrived (if not nil) once the request is there.
func (s *server) Block(path string, arrived chan<- string) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		if arrived != nil {
			select {
			case arrived <- path:
			case <-s.stop:
			}
		}
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
	})
}

// At returns the absolute URL of path.
func (s *server) At(path string) string { return s.Server.URL + path }

// Hits returns how many requests there were for path (query included when
// path has one).
func (s *server) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, p := range s.log {
		if p == path || !strings.Contains(path, "?") && strings.SplitN(p, "?", 2)[0] == path {
			n++
		}
	}
	return n
}

// HitsByPath returns how many requests there were for each path.
func (s *server) HitsByPath() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string]int{}
	for _, p := range s.log {
		m[strings.SplitN(p, "?", 2)[0]]++
	}
	return m
}

// MaxHits returns the most requests one path (query included) had, and
// that path.
func (s *server) MaxHits() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	hits := map[string]int{}
	n, path := 0, ""
	for _, p := range s.log {
		if hits[p]++; hits[p] > n {
			n, path = hits[p], p
		}
	}
	return n, path
}

// ResetLog forgets the requests logged so far.
func (s *server) ResetLog() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log, s.agents, s.hosts = nil, nil, nil
}

// HostLog returns the host and path of every request, in order.
func (s *server) HostLog() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.hosts)
}

// Log returns the paths requested, in order.
func (s *server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// Agents returns the User-Agent header of every request, in order.
func (s *server) Agents() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.agents)
}

// Total returns how many requests the server got.
func (s *server) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.log)
}

// route is what serve answers for one path. In Body and in the
// values of Header, {base} stands for the URL of the server.
type route struct {
	Status  int // 0 is 200 OK
	Body    string
	Header  map[string]string
	Handler http.HandlerFunc // when set, it answers instead
}

// serve returns a server that answers each path of routes with its
// route, and any other path with 404.
func serve(t testing.TB, routes map[string]route) *server {
	t.Helper()
	srv := newServer(t)
	expand := func(s string) string { return strings.ReplaceAll(s, "{base}", srv.At("")) }
	for path, resp := range routes {
		if resp.Handler != nil {
			srv.Handle(path, resp.Handler)
			continue
		}
		body := expand(resp.Body)
		srv.Handle(path, func(w http.ResponseWriter, r *http.Request) {
			for k, v := range resp.Header {
				w.Header().Set(k, expand(v))
			}
			if resp.Status != 0 {
				w.WriteHeader(resp.Status)
			}
			fmt.Fprint(w, body)
		})
	}
	return srv
}

// urlset returns a urlset of one <url> for each entry: an entry that
// begins with "<" is the body of its <url> as it is (a <loc> with other
// children, or none), any other is the text of the <loc>.
func urlset(entries ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="` + sitemapNS + `">` + "\n")
	for _, e := range entries {
		if strings.HasPrefix(e, "<") {
			fmt.Fprintf(&b, "  <url>%s</url>\n", e)
			continue
		}
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", e)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// index returns a sitemap index of the given entries, each a location
// optionally followed by "|" and a <lastmod> value.
func index(entries ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<sitemapindex xmlns="` + sitemapNS + `">` + "\n")
	for _, e := range entries {
		loc, lastmod, dated := strings.Cut(e, "|")
		if dated {
			fmt.Fprintf(&b, "  <sitemap><loc>%s</loc><lastmod>%s</lastmod></sitemap>\n", loc, lastmod)
		} else {
			fmt.Fprintf(&b, "  <sitemap><loc>%s</loc></sitemap>\n", loc)
		}
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// locsOf returns the Loc of every URL.
func locsOf(urls []sitemap.URL) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = u.Loc
	}
	return out
}

// sitemapLocsOf returns the Loc of every sitemap.
func sitemapLocsOf(sms []sitemap.Sitemap) []string {
	out := make([]string, len(sms))
	for i, sm := range sms {
		out[i] = sm.Loc
	}
	return out
}

// messagesOf returns the message of every error.
func messagesOf(errs []error) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

// gate is a handler that announces each request it gets on entered
// and answers only once Release is called. Created before the server, it
// releases its requests when the test ends, so that a test that fails while
// a request is held does not leave the server's Close waiting for it.
type gate struct {
	entered chan string
	release chan struct{}
	once    sync.Once
}

func newGate(t testing.TB) *gate {
	b := &gate{entered: make(chan string, 16), release: make(chan struct{})}
	t.Cleanup(b.Release)
	return b
}

// Release lets every request held, and every later one, be answered.
func (b *gate) Release() { b.once.Do(func() { close(b.release) }) }

// Wait holds a request until Release is called or the request ends; it
// reports whether the request is to be answered.
func (b *gate) Wait(r *http.Request) bool {
	b.entered <- r.URL.Path
	select {
	case <-b.release:
		return true
	case <-r.Context().Done():
		return false
	}
}

func (b *gate) handler(body func() string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if b.Wait(r) {
			fmt.Fprint(w, body())
		}
	}
}

// guardTimeout is how long a test waits for what should happen at once before
// it fails instead of hanging. It is generous: on a machine that runs
// several race binaries at once, ten seconds were once not enough for a
// streaming call over an index of gzipped sitemaps to end.
const guardTimeout = 60 * time.Second

// fetchTimeout is the fetch timeout of the tests that wait for one to run
// out (set with sitemap.SetFetchTimeoutForTest): short, as what these tests
// wait for is the timeout, and long enough that the other documents of the
// same call, served on loopback, are read within it on a loaded machine.
// That the seconds of SetFetchTimeout become the client's timeout is
// TestFetchTimeoutIsTheClientTimeout's.
const fetchTimeout = 100 * time.Millisecond

// shortTimeout returns a new instance with the fetch timeout of the tests
// that wait for one.
func shortTimeout() *sitemap.S { return sitemap.SetFetchTimeoutForTest(sitemap.New(), fetchTimeout) }

// stacks returns the stack of every goroutine, one a string.
func stacks() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Split(string(buf[:n]), "\n\n")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// recv waits for a value on ch, failing the test after guardTimeout.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guardTimeout):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

func fill(base string, ss []string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, strings.ReplaceAll(s, "{}", base))
	}
	return out
}

// gzipMembers compresses every part as a gzip member of its own and puts
// them one after the other, as cat a.gz b.gz does.
func gzipMembers(t *testing.T, parts ...string) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, gzipOf(p)...)
	}
	return out
}

const bom = "\xEF\xBB\xBF"

var sentinels = []struct {
	name string
	err  error
}{
	{"ErrMaxResponseSize", sitemap.ErrMaxResponseSize},
	{"ErrMaxDepth", sitemap.ErrMaxDepth},
	{"ErrMaxSitemaps", sitemap.ErrMaxSitemaps},
	{"ErrMaxURLs", sitemap.ErrMaxURLs},
	{"ErrMaxValidationErrors", sitemap.ErrMaxValidationErrors},
}

var feedModes = []struct {
	name   string
	strict bool
}{{"tolerant", false}, {"strict", true}}

// feedParse parses content as the document at loc.
func feedParse(t *testing.T, strict bool, loc, content string) (*sitemap.S, error) {
	t.Helper()
	return sitemap.New().SetStrict(strict).Parse(loc, &content)
}

func feedLocs(s *sitemap.S) []string {
	locs := []string{}
	for _, u := range s.GetURLs() {
		locs = append(locs, u.Loc)
	}
	return locs
}

func feedErrTexts(errs []error) []string {
	texts := []string{}
	for _, err := range errs {
		texts = append(texts, err.Error())
	}
	return texts
}

// feedCheck checks the locations and the error messages of a call.
func feedCheck(t *testing.T, s *sitemap.S, err error, wantLocs, wantErrs []string) {
	t.Helper()
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := feedLocs(s); !slices.Equal(got, wantLocs) {
		t.Errorf("locations:\n got %q\nwant %q", got, wantLocs)
	}
	if wantErrs == nil {
		wantErrs = []string{}
	}
	if got := feedErrTexts(s.GetErrors()); !slices.Equal(got, wantErrs) {
		t.Errorf("errors:\n got %q\nwant %q", got, wantErrs)
	}
}

// feedCheckBare checks that a URL of a feed or a text sitemap carries the
// location and the date only (FEED-1, FEED-2, FEED-3).
func feedCheckBare(t *testing.T, u sitemap.URL) {
	t.Helper()
	if u.ChangeFreq != nil || u.Priority != nil {
		t.Errorf("%s: ChangeFreq %v, Priority %v, want nil", u.Loc, u.ChangeFreq, u.Priority)
	}
	if u.Images != nil || u.News != nil || u.Videos != nil || u.Hreflangs != nil {
		t.Errorf("%s: extensions %+v %+v %+v %+v, want none", u.Loc, u.Images, u.News, u.Videos, u.Hreflangs)
	}
}

// feedCountErrs counts the *ValidationError values among errs and the
// *ParseError values that wrap limit; any other error fails the test.
func feedCountErrs(t *testing.T, errs []error, limit error) (nValidation, nLimit int) {
	t.Helper()
	for _, err := range errs {
		var verr *sitemap.ValidationError
		var perr *sitemap.ParseError
		switch {
		case errors.As(err, &verr):
			nValidation++
		case errors.As(err, &perr) && errors.Is(err, limit):
			nLimit++
		default:
			t.Errorf("unexpected error %v", err)
		}
	}
	return nValidation, nLimit
}

const xmlnsAttr = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

// guard fails the test when f has not returned within d.
func guard(t *testing.T, d time.Duration, f func()) {
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

// peakHeap runs f and returns the largest heap in use seen while it ran,
// above the heap in use before it started.
func peakHeap(f func()) uint64 {
	runtime.GC()
	return peakOf(heapInUse, 20*time.Millisecond, f)
}

// peakOf runs f and returns the most that read gave, looked at every
// period while f ran, above what it gave before f started.
func peakOf(read func() uint64, every time.Duration, f func()) uint64 {
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

// heapInUse is the heap in use, garbage not yet collected included.
func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// liveHeap is the live heap: the garbage is collected first.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

const mib = 1 << 20

// newParser returns an instance whose requests may take long, so that a loaded
// machine does not turn a test of something else into one of the timeout.
func newParser() *sitemap.S { return sitemap.New().SetFetchTimeout(60) }

func has[E error](s *sitemap.S, target *E) bool {
	for err := range s.Errors() {
		if errors.As(err, target) {
			return true
		}
	}
	return false
}

// spellings are twelve spellings of https://example.com/sitemap.xml, the
// first of them the plain one: the case of the scheme and of the host, the
// default port, dot segments, escapes of unreserved characters in either
// case, and a fragment, which a request never sends (RFC 3986 §6.2.2).
var spellings = []string{
	"https://example.com/sitemap.xml",
	"HTTPS://example.com/sitemap.xml",
	"https://EXAMPLE.com/sitemap.xml",
	"https://example.com:443/sitemap.xml",
	"https://example.com/a/../sitemap.xml",
	"https://example.com/./sitemap.xml",
	"https://example.com/%73itemap.xml",
	"https://example.com/sitemap%2Exml",
	"https://example.com/sitemap%2exml",
	"https://example.com/sitemap.xml#top",
	"https://example.com/a/%2E%2E/b/../sitemap.xml",
	"https://Example.COM:443/./x/..//../%73itemap%2exml#x",
}

// requests serves the documents of docs by their decoded path in the
// process, on whatever host is asked, and counts every request.
func requests(docs map[string]string) (*http.Client, *web) {
	w := &web{h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, doc)
	})}
	return w.Client(), w
}

// indexDocs returns an index at /index.xml listing n urlsets of per URLs
// each, /s0.xml to /s<n-1>.xml, where the URLs of /s<i>.xml are /s<i>/0 to
// /s<i>/<per-1>, and the extra locations after them.
func indexDocs(n, per int, extra ...string) map[string]string {
	docs := map[string]string{}
	locs := make([]string, n)
	for i := range n {
		locs[i] = fmt.Sprintf("/s%d.xml", i)
		pages := make([]string, per, per+len(extra))
		for j := range per {
			pages[j] = fmt.Sprintf("/s%d/%d", i, j)
		}
		docs[locs[i]] = urlset(append(pages, extra...)...)
	}
	docs["/index.xml"] = index(locs...)
	return docs
}

// fakeIndex returns a web that serves the site of indexDocs(n, 1) in the
// process, on any host (https://example.com/index.xml in the tests).
func fakeIndex(n int) *web {
	_, w := requests(indexDocs(n, 1))
	return w
}

// parseModes parses content located at base and returns the Locs and the error
// messages.
func parseModes(t *testing.T, strict bool, base, content string) (locs, errs []string) {
	t.Helper()
	s, err := sitemap.New().SetStrict(strict).Parse(base, &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, u := range s.GetURLs() {
		locs = append(locs, u.Loc)
	}
	for _, e := range s.GetErrors() {
		errs = append(errs, e.Error())
	}
	return locs, errs
}

// userAgentRoutes is a robots.txt naming an index that lists a urlset, so that
// a call makes a request of every kind UA-1 names.
func userAgentRoutes() map[string]route {
	return map[string]route{
		"/robots.txt": {Body: "User-agent: *\nSitemap: {base}/index.xml\n"},
		"/index.xml":  {Body: index("{base}/a.xml")},
		"/a.xml":      {Body: urlset("{base}/page")},
	}
}

// pattern returns a pattern of exactly n characters that matches
// "keep" and what holds it: "keep" followed by optional dashes, padded with
// an optional 'é' (one character, two bytes) when multibyte is set.
func pattern(n int, multibyte bool) string {
	if !multibyte {
		p := "keep" + strings.Repeat("-?", (n-4)/2)
		if len(p) < n {
			p += "."
		}
		return p
	}
	// "keep" + k × "é?" + padding: every "é?" is two characters, three
	// bytes, so the pattern has well over 1,000 bytes.
	p := "keep" + strings.Repeat("é?", (n-4)/2)
	if len([]rune(p)) < n {
		p += "."
	}
	return p
}

// richContent is a urlset whose first URL sets every field of URL and of
// the extension structs, pointers and slices included.
const richContent = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
  xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
  xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.com/page</loc>
    <lastmod>2024-01-15T10:30:00Z</lastmod>
    <changefreq>daily</changefreq>
    <priority>0.8</priority>
    <image:image>
      <image:loc>https://example.com/a.jpg</image:loc>
      <image:title>A</image:title>
      <image:caption>C</image:caption>
      <image:geo_location>G</image:geo_location>
      <image:license>https://example.com/licence</image:license>
    </image:image>
    <news:news>
      <news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2024-01-15T08:00:00Z</news:publication_date>
      <news:title>T</news:title>
    </news:news>
    <video:video>
      <video:thumbnail_loc>https://example.com/thumb.jpg</video:thumbnail_loc>
      <video:title>V</video:title>
      <video:description>D</video:description>
      <video:content_loc>https://example.com/v.mp4</video:content_loc>
      <video:player_loc>https://example.com/player</video:player_loc>
      <video:duration>600</video:duration>
      <video:expiration_date>2030-01-01T00:00:00Z</video:expiration_date>
      <video:rating>4.2</video:rating>
      <video:view_count>100</video:view_count>
      <video:publication_date>2024-01-01T00:00:00Z</video:publication_date>
      <video:family_friendly>yes</video:family_friendly>
      <video:restriction relationship="allow">IE GB</video:restriction>
      <video:platform relationship="allow">web tv</video:platform>
      <video:requires_subscription>no</video:requires_subscription>
      <video:uploader info="https://example.com/uploader">U</video:uploader>
      <video:live>no</video:live>
      <video:tag>t1</video:tag>
      <video:tag>t2</video:tag>
    </video:video>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
  </url>
  <url>
    <loc>https://example.com/second</loc>
    <lastmod>2024-02-01</lastmod>
    <priority>0.5</priority>
  </url>
</urlset>`

// parseContent parses content as the sitemap at url with a new instance.
func parseContent(t *testing.T, url, content string) *sitemap.S {
	t.Helper()
	s, err := sitemap.New().Parse(url, &content)
	if err != nil {
		t.Fatalf("Parse(%s): %v", url, err)
	}
	return s
}

// mutate changes every field of u and everything it points to.
func mutate(u *sitemap.URL) {
	later := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)
	u.Loc = "mutated"
	u.LastMod.Time = later
	*u.ChangeFreq = "mutated"
	*u.Priority = 99
	u.Images[0] = sitemap.Image{Loc: "mutated", Title: "mutated", Caption: "mutated", GeoLocation: "mutated", License: "mutated"}
	u.Images = append(u.Images, sitemap.Image{Loc: "appended"})
	u.News.Title = "mutated"
	u.News.Publication.Name = "mutated"
	u.News.Publication.Language = "mutated"
	u.News.PublicationDate.Time = later
	v := &u.Videos[0]
	v.ThumbnailLoc, v.Title, v.Description, v.ContentLoc, v.PlayerLoc = "m", "m", "m", "m", "m"
	v.FamilyFriendly, v.RequiresSubscription, v.Live = "m", "m", "m"
	*v.Duration = -1
	v.ExpirationDate.Time = later
	*v.Rating = -1
	*v.ViewCount = -1
	v.PublicationDate.Time = later
	v.Restriction.Relationship, v.Restriction.Value = "m", "m"
	v.Platform.Relationship, v.Platform.Value = "m", "m"
	v.Uploader.Value, v.Uploader.Info = "m", "m"
	v.Tags[0] = "mutated"
	v.Tags = append(v.Tags, "appended")
	u.Videos = append(u.Videos, sitemap.Video{ThumbnailLoc: "appended"})
	u.Hreflangs[0] = sitemap.AlternateLink{Rel: "m", Hreflang: "m", Href: "m"}
}

// sharesMemory reports the first pointer or slice of c that is the one of
// orig: a deep copy shares none.
func sharesMemory(c, orig *sitemap.URL) string {
	switch {
	case c.LastMod == orig.LastMod:
		return "LastMod"
	case c.ChangeFreq == orig.ChangeFreq:
		return "ChangeFreq"
	case c.Priority == orig.Priority:
		return "Priority"
	case &c.Images[0] == &orig.Images[0]:
		return "Images"
	case c.News == orig.News:
		return "News"
	case c.News.PublicationDate == orig.News.PublicationDate:
		return "News.PublicationDate"
	case &c.Videos[0] == &orig.Videos[0]:
		return "Videos"
	case &c.Hreflangs[0] == &orig.Hreflangs[0]:
		return "Hreflangs"
	}
	cv, ov := &c.Videos[0], &orig.Videos[0]
	switch {
	case cv.Duration == ov.Duration:
		return "Video.Duration"
	case cv.ExpirationDate == ov.ExpirationDate:
		return "Video.ExpirationDate"
	case cv.Rating == ov.Rating:
		return "Video.Rating"
	case cv.ViewCount == ov.ViewCount:
		return "Video.ViewCount"
	case cv.PublicationDate == ov.PublicationDate:
		return "Video.PublicationDate"
	case cv.Restriction == ov.Restriction:
		return "Video.Restriction"
	case cv.Platform == ov.Platform:
		return "Video.Platform"
	case cv.Uploader == ov.Uploader:
		return "Video.Uploader"
	case &cv.Tags[0] == &ov.Tags[0]:
		return "Video.Tags"
	}
	return ""
}

// mustDate parses a date of the fixtures.
func mustDate(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// async runs Parse in a goroutine; wait returns its outcome, failing the
// test if it does not come.
func async(t *testing.T, parse func() (*sitemap.S, error)) (wait func() (*sitemap.S, error)) {
	type result struct {
		s   *sitemap.S
		err error
	}
	ch := make(chan result, 1)
	go func() {
		s, err := parse()
		ch <- result{s, err}
	}()
	return func() (*sitemap.S, error) {
		t.Helper()
		r := recv(t, ch, "Parse to return")
		return r.s, r.err
	}
}

// pages returns n page URLs of the form https://example.com/<prefix>-<i>.
func pages(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("https://example.com/%s-%d", prefix, i+1)
	}
	return out
}

// gzipOf compresses s as one gzip member.
func gzipOf(s string) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	io.WriteString(z, s) // a bytes.Buffer takes every write
	z.Close()
	return buf.Bytes()
}

// errorsOf returns the errors of type T (a pointer to one of the error types).
func errorsOf[T error](errs []error) []T {
	var out []T
	for _, e := range errs {
		var target T
		if errors.As(e, &target) {
			out = append(out, target)
		}
	}
	return out
}

// countIs returns how many of errs wrap target.
func countIs(errs []error, target error) int {
	n := 0
	for _, e := range errs {
		if errors.Is(e, target) {
			n++
		}
	}
	return n
}

// equalStrings fails the test when got and want differ.
func equalStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, short(got), short(want))
	}
}

// short cuts long strings for a readable failure message.
func short(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		out[i] = s
	}
	return out
}

// noErrors fails the test when s recorded any error.
func noErrors(t *testing.T, s *sitemap.S) {
	t.Helper()
	if errs := s.GetErrors(); len(errs) != 0 {
		t.Errorf("unexpected errors: %q", messagesOf(errs))
	}
}

// delivery is one way a document reaches the parser: passed in as
// content, or fetched, whole or in small pieces.
type delivery struct {
	name string
	// parse parses body as the document at path on srv, configured by s.
	parse func(t *testing.T, s *sitemap.S, srv *server, path string, body []byte) (*sitemap.S, error)
}

// deliveries are the ways every key fixture is read: as content, served
// whole, served one byte per flushed write, and read through
// iotest.OneByteReader and iotest.HalfReader by the client.
var deliveries = []delivery{
	{"content", func(t *testing.T, s *sitemap.S, srv *server, path string, body []byte) (*sitemap.S, error) {
		content := string(body)
		return s.Parse(srv.At(path), &content)
	}},
	{"served", func(t *testing.T, s *sitemap.S, srv *server, path string, body []byte) (*sitemap.S, error) {
		srv.Bytes(path, body)
		return s.Parse(srv.At(path), nil)
	}},
	{"trickled", func(t *testing.T, s *sitemap.S, srv *server, path string, body []byte) (*sitemap.S, error) {
		srv.Trickle(path, body)
		return s.Parse(srv.At(path), nil)
	}},
	{"OneByteReader", func(t *testing.T, s *sitemap.S, srv *server, path string, body []byte) (*sitemap.S, error) {
		srv.Bytes(path, body)
		s.SetHTTPClient(&http.Client{Transport: &web{net: true, wrap: iotest.OneByteReader}})
		return s.Parse(srv.At(path), nil)
	}},
	{"HalfReader", func(t *testing.T, s *sitemap.S, srv *server, path string, body []byte) (*sitemap.S, error) {
		srv.Bytes(path, body)
		s.SetHTTPClient(&http.Client{Transport: &web{net: true, wrap: iotest.HalfReader}})
		return s.Parse(srv.At(path), nil)
	}},
}

// manualCtx is a context that the test ends when it chooses, with the
// error it chooses (context.DeadlineExceeded for a deadline that passes at a
// known moment).
type manualCtx struct {
	done chan struct{}
	once sync.Once
	mu   sync.Mutex
	err  error
}

func newManualCtx() *manualCtx { return &manualCtx{done: make(chan struct{})} }

func (c *manualCtx) Deadline() (time.Time, bool) { return time.Time{}, false }

func (c *manualCtx) Done() <-chan struct{} { return c.done }

func (c *manualCtx) Value(any) any { return nil }

func (c *manualCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// end ends the context with err.
func (c *manualCtx) end(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

var _ context.Context = (*manualCtx)(nil)

// indexSite serves /index.xml listing n urlsets of per URLs each, each
// with an entry of another scheme after them, and a broken /broken.xml
// listed last. The documents are made before the server starts, so that
// serving one allocates little.
func indexSite(t *testing.T, n, per int) *server {
	t.Helper()
	docs := indexDocs(n, per, "ftp://bad/")
	locs := make([]string, 0, n+1)
	for i := range n {
		locs = append(locs, fmt.Sprintf("/s%d.xml", i))
	}
	docs["/index.xml"] = index(append(locs, "/broken.xml")...)
	docs["/broken.xml"] = "<html></html>"
	return serveDocs(t, docs)
}

// parked returns how many goroutines are blocked (neither running nor
// runnable) with every one of the frames in has on their stack and none of
// those in hasNot. It tells where a Parse call is waiting by the public
// entry point and net/http, not by the package's internals.
func parked(has, hasNot []string) int {
	parked := 0
	for _, g := range stacks() {
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

// frameParse is the frame of a goroutine inside a call of Parse.
const frameParse = "sitemap.(*S).ParseContext("

// web is the one transport of the tests. It answers every request in the
// process from h, with no socket, as a server would: the handler runs on a
// goroutine of its own and its body streams to the client as it writes it,
// so that it may hold a request, send half a body and stall, or never end;
// with whole set, it runs h on the caller's goroutine instead and sends the
// body whole once h returns: no goroutine or pipe for each request.
// With net set and no h, it passes the requests on to the network, for a
// server on loopback; with neither, it refuses every request (a call that
// must fetch nothing). Whatever answers, it counts and logs every request,
// and hands every body through wrap when set (iotest.OneByteReader, ...).
type web struct {
	h     http.Handler
	whole bool // h runs on the caller's goroutine and its body is sent whole: for tens of thousands of small documents
	net   bool
	wrap  func(io.Reader) io.Reader
	n     atomic.Int64

	mu        sync.Mutex
	log       []string    // the URL of every request, in order
	deadlines []time.Time // the deadline of the context of every request, zero for none
}

// readGate calls passed once r has given after bytes or more: a gate that
// tells how far a client has read a body.
type readGate struct {
	r      io.Reader
	after  int
	passed func()
}

func (g *readGate) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if g.after -= n; g.after <= 0 {
		g.passed()
	}
	return n, err
}

// errNoNetwork is the error of a request to a web that refuses them.
var errNoNetwork = errors.New("this test makes no requests")

func (w *web) RoundTrip(r *http.Request) (*http.Response, error) {
	w.n.Add(1)
	d, _ := r.Context().Deadline()
	w.mu.Lock()
	w.log, w.deadlines = append(w.log, r.URL.String()), append(w.deadlines, d)
	w.mu.Unlock()
	var resp *http.Response
	var err error
	switch {
	case w.h != nil && w.whole:
		if err := r.Context().Err(); err != nil {
			return nil, err
		}
		rec := httptest.NewRecorder()
		w.h.ServeHTTP(rec, r)
		resp = rec.Result()
		resp.Request = r
	case w.h != nil:
		resp, err = serveInProcess(w.h, r)
	case w.net:
		resp, err = http.DefaultTransport.RoundTrip(r)
	default:
		return nil, errNoNetwork
	}
	if err != nil || w.wrap == nil {
		return resp, err
	}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{w.wrap(resp.Body), resp.Body}
	return resp, nil
}

// Client returns a client that sends every request to w.
func (w *web) Client() *http.Client { return &http.Client{Transport: w} }

// Log returns the URLs requested, in order.
func (w *web) Log() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.log)
}

// Deadlines returns the deadline of the context of every request, in
// order: zero where the request had none.
func (w *web) Deadlines() []time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.deadlines)
}

// offline returns an instance whose every request is refused, and the
// transport that counts them.
func offline() (*sitemap.S, *web) {
	w := &web{}
	return sitemap.New().SetHTTPClient(w.Client()), w
}

// fakeRedirect begins a document of newFakeWeb that is a redirect to the
// URL that follows it.
const fakeRedirect = "REDIRECT "

// newFakeWeb returns a web that answers from a map of absolute URLs to
// documents, read at each request, so that tests can use hosts such as
// example.com. An unknown URL is a 404; a document that begins with
// fakeRedirect is a 302.
func newFakeWeb(docs map[string]string) *web {
	return &web{h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := docs[r.URL.String()]
		switch {
		case !ok:
			http.NotFound(w, r)
		case strings.HasPrefix(body, fakeRedirect):
			http.Redirect(w, r, strings.TrimPrefix(body, fakeRedirect), http.StatusFound)
		default:
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			io.WriteString(w, body)
		}
	})}
}

// serveInProcess runs h for r on a goroutine of its own and returns the
// response as a server on loopback would send it: once h has returned, its
// body whole; or once it has flushed, or written more than a buffer holds,
// with a body that streams what h writes from then on, so that h may send
// half a body and stall, or never end. The handler gets r with the client's
// context: a request the client gives up ends it as a connection that closes
// would. A body shorter than the Content-Length h set, or cut by a panic of
// h, ends in io.ErrUnexpectedEOF, as one cut off would.
func serveInProcess(h http.Handler, r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	rw := &pipeWriter{ctx: r.Context(), header: http.Header{}, ready: make(chan struct{})}
	sr := new(http.Request) // a shallow copy: the handlers change nothing of it
	*sr = *r
	sr.RequestURI, sr.Host, sr.RemoteAddr = r.URL.RequestURI(), r.URL.Host, "192.0.2.1:1234"
	go func() {
		defer func() {
			var err error
			switch p := recover(); {
			case p != nil: // the connection a server would close
				err = io.ErrUnexpectedEOF
			case r.Context().Err() != nil:
				err = r.Context().Err()
			case rw.length >= 0 && rw.written < rw.length:
				err = io.ErrUnexpectedEOF
			}
			rw.end(err)
		}()
		h.ServeHTTP(rw, sr)
	}()
	select {
	case <-rw.ready:
	case <-r.Context().Done():
		return nil, r.Context().Err() // the handler sees the same context, and ends
	}
	if rw.err != nil && rw.body == nil {
		return nil, rw.err
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", rw.status, http.StatusText(rw.status)),
		StatusCode:    rw.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rw.sent,
		Body:          rw.body,
		ContentLength: rw.length,
		Request:       r,
	}, nil
}

// streamAfter is how much a handler of serveInProcess writes, with no
// flush, before its body streams.
const streamAfter = 64 << 10

// pipeWriter is the http.ResponseWriter of serveInProcess. The handler's
// goroutine writes; ready is closed once the response may be read: the
// handler has returned (the body is buf) or streams (the body is a pipe).
type pipeWriter struct {
	ctx             context.Context // the request's
	header, sent    http.Header
	status          int
	length, written int64 // the Content-Length set (-1 when none), and the bytes written
	buf             bytes.Buffer
	pw              *io.PipeWriter // set once the body streams
	body            io.ReadCloser
	err             error // what ended the handler before its response was ready
	ready           chan struct{}
}

func (p *pipeWriter) Header() http.Header { return p.header }

func (p *pipeWriter) WriteHeader(code int) {
	if p.status != 0 {
		return
	}
	p.status, p.sent, p.length = code, p.header.Clone(), -1
	if n, err := strconv.ParseInt(p.sent.Get("Content-Length"), 10, 64); err == nil {
		p.length = n
	}
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	if p.pw == nil && p.buf.Len()+len(b) <= streamAfter {
		p.written += int64(len(b))
		return p.buf.Write(b)
	}
	if p.pw == nil {
		p.stream()
	}
	n, err := p.pw.Write(b)
	p.written += int64(n)
	return n, err
}

func (p *pipeWriter) Flush() {
	p.WriteHeader(http.StatusOK)
	if p.pw == nil {
		p.stream()
	}
}

// stream makes the response ready with a body that streams, what was
// written so far first, until the request's context ends.
func (p *pipeWriter) stream() {
	pr, pw := io.Pipe()
	p.pw, p.body = pw, pr
	// A request given up ends its body, and the writes of the handler.
	context.AfterFunc(p.ctx, func() { pr.CloseWithError(p.ctx.Err()) })
	close(p.ready)
	if p.buf.Len() > 0 {
		pw.Write(p.buf.Bytes())
		p.buf = bytes.Buffer{}
	}
}

// end is the handler's return, err what cut its response short.
func (p *pipeWriter) end(err error) {
	if p.pw != nil {
		p.pw.CloseWithError(err) // nil is io.EOF
		return
	}
	p.WriteHeader(http.StatusOK)
	if err != nil && p.written == 0 {
		p.err = err
	} else {
		body := io.Reader(bytes.NewReader(p.buf.Bytes()))
		if err != nil {
			body = io.MultiReader(body, iotest.ErrReader(err))
		}
		p.body = io.NopCloser(body)
	}
	close(p.ready)
}
