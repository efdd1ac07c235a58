package sitemap_test

// Helpers of the black-box suites of fetch, decode, limits, scheduler,
// context, redirects, encoding and robots.txt. Every name starts with ct2,
// so that they do not clash with the helpers of the other test files.

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gositemap/sitemap"
)

// ct2Guard is how long a test waits for something that should happen at
// once before it fails instead of hanging.
const ct2Guard = 20 * time.Second

// ct2NS is the namespace of the sitemaps.org protocol.
const ct2NS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// ct2Server is an httptest server on loopback with one handler per path. It
// logs every request (path, User-Agent), counts the requests in flight and
// answers 404 for a path it does not know.
type ct2Server struct {
	*httptest.Server

	// stop is closed when the test ends, before the server is closed, so
	// that handlers that block let go.
	stop chan struct{}

	mu     sync.Mutex
	routes map[string]http.HandlerFunc
	log    []string // the path (with query) of every request, in order
	agents []string // the User-Agent of every request, in order

	inflight, maxInflight atomic.Int64
}

// ct2NewServer starts a ct2Server with no routes; it is closed when the test
// ends.
func ct2NewServer(t testing.TB) *ct2Server {
	t.Helper()
	s := &ct2Server{stop: make(chan struct{}), routes: map[string]http.HandlerFunc{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.stop) }) // runs first
	return s
}

func (s *ct2Server) serve(w http.ResponseWriter, r *http.Request) {
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
	h := s.routes[r.URL.Path]
	s.mu.Unlock()
	if h == nil {
		http.NotFound(w, r)
		return
	}
	h(w, r)
}

// Handle serves path with h.
func (s *ct2Server) Handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes[path] = h
}

// Doc serves body at path with status 200.
func (s *ct2Server) Doc(path, body string) { s.Bytes(path, []byte(body)) }

// Bytes serves body at path with status 200.
func (s *ct2Server) Bytes(path string, body []byte) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
}

// Trickle serves body at path one byte per Write, each flushed, so that the
// client gets it in as many reads as there are bytes.
func (s *ct2Server) Trickle(path string, body []byte) {
	s.Handle(path, ct2TrickleHandler(body))
}

func ct2TrickleHandler(body []byte) http.HandlerFunc {
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
func (s *ct2Server) Redirect(path, target string) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	})
}

// Status answers path with the given status code.
func (s *ct2Server) Status(path string, code int) {
	s.Handle(path, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
}

// Block answers path only when the request is cancelled or the test ends;
// it sends the path to arrived (if not nil) once the request is there.
func (s *ct2Server) Block(path string, arrived chan<- string) {
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

// URL returns the absolute URL of path.
func (s *ct2Server) URL(path string) string { return s.Server.URL + path }

// Hits returns how many requests there were for path (query included when
// path has one).
func (s *ct2Server) Hits(path string) int {
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

// Log returns the paths requested, in order.
func (s *ct2Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// Agents returns the User-Agent header of every request, in order.
func (s *ct2Server) Agents() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.agents)
}

// Total returns how many requests the server got.
func (s *ct2Server) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.log)
}

// ct2URLSet returns a urlset listing locs, each <loc> as given.
func ct2URLSet(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="` + ct2NS + `">` + "\n")
	for _, l := range locs {
		b.WriteString("  <url><loc>" + l + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// ct2Index returns a sitemap index listing locs.
func ct2Index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<sitemapindex xmlns="` + ct2NS + `">` + "\n")
	for _, l := range locs {
		b.WriteString("  <sitemap><loc>" + l + "</loc></sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// ct2Pages returns n page URLs of the form https://example.com/<prefix>-<i>.
func ct2Pages(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("https://example.com/%s-%d", prefix, i+1)
	}
	return out
}

// ct2Gzip compresses s as one gzip member.
func ct2Gzip(t testing.TB, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	if _, err := io.WriteString(z, s); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ct2Of returns the errors of type T (a pointer to one of the error types).
func ct2Of[T error](errs []error) []T {
	var out []T
	for _, e := range errs {
		var target T
		if errors.As(e, &target) {
			out = append(out, target)
		}
	}
	return out
}

// ct2Is returns how many of errs wrap target.
func ct2Is(errs []error, target error) int {
	n := 0
	for _, e := range errs {
		if errors.Is(e, target) {
			n++
		}
	}
	return n
}

// ct2Equal fails the test when got and want differ.
func ct2Equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, ct2Short(got), ct2Short(want))
	}
}

// ct2Short cuts long strings for a readable failure message.
func ct2Short(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		out[i] = s
	}
	return out
}

// ct2NoErrors fails the test when s recorded any error.
func ct2NoErrors(t *testing.T, s *sitemap.S) {
	t.Helper()
	if errs := s.GetErrors(); len(errs) != 0 {
		t.Errorf("unexpected errors: %q", messagesOf(errs))
	}
}

// ct2Within runs f and fails the test if it has not returned within the
// guard time, instead of letting the test hang.
func ct2Within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(ct2Guard):
		t.Fatalf("still running after %v: hung", ct2Guard)
	}
}

// ct2Recv receives from ch, failing the test if nothing comes within the
// guard time.
func ct2Recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(ct2Guard):
		t.Fatalf("waited %v for %s", ct2Guard, what)
		var zero T
		return zero
	}
}

// ct2Transport is an http.RoundTripper that counts the requests that go
// through it, and can hand the body of every response through a wrapper,
// such as iotest.OneByteReader.
type ct2Transport struct {
	base http.RoundTripper
	wrap func(io.Reader) io.Reader
	n    atomic.Int64

	mu   sync.Mutex
	reqs []*http.Request
}

func (tr *ct2Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	tr.n.Add(1)
	tr.mu.Lock()
	tr.reqs = append(tr.reqs, req)
	tr.mu.Unlock()
	base := tr.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err != nil || tr.wrap == nil {
		return resp, err
	}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{tr.wrap(resp.Body), resp.Body}
	return resp, nil
}

// Requests returns the requests that went through the transport.
func (tr *ct2Transport) Requests() []*http.Request {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.reqs)
}

// ct2Fake is an http.RoundTripper that answers from a map of absolute URLs
// to documents and never touches the network, so that tests can use hosts
// such as example.com. An unknown URL is a 404; a document that begins
// with ct2FakeRedirect is a 302.
type ct2Fake struct {
	mu   sync.Mutex
	docs map[string]string
	log  []string
}

// ct2FakeRedirect begins a document of ct2Fake that is a redirect to the
// URL that follows it.
const ct2FakeRedirect = "REDIRECT "

func ct2NewFake(docs map[string]string) *ct2Fake { return &ct2Fake{docs: docs} }

func (f *ct2Fake) RoundTrip(req *http.Request) (*http.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := req.URL.String()
	f.log = append(f.log, u)
	body, ok := f.docs[u]
	status, code := "200 OK", http.StatusOK
	header := http.Header{}
	switch {
	case !ok:
		status, code = "404 Not Found", http.StatusNotFound
	case strings.HasPrefix(body, ct2FakeRedirect):
		status, code = "302 Found", http.StatusFound
		header.Set("Location", strings.TrimPrefix(body, ct2FakeRedirect))
		body = ""
	}
	return &http.Response{
		Status:        status,
		StatusCode:    code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}

// Log returns the URLs requested, in order.
func (f *ct2Fake) Log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}

// Client returns a client that sends every request to f.
func (f *ct2Fake) Client() *http.Client { return &http.Client{Transport: f} }

// ct2Delivery is one way a document reaches the parser: passed in as
// content, or fetched, whole or in small pieces.
type ct2Delivery struct {
	name string
	// parse parses body as the document at path on srv, configured by s.
	parse func(t *testing.T, s *sitemap.S, srv *ct2Server, path string, body []byte) (*sitemap.S, error)
}

// ct2Deliveries are the ways every key fixture is read: as content, served
// whole, served one byte per flushed write, and read through
// iotest.OneByteReader and iotest.HalfReader by the client.
var ct2Deliveries = []ct2Delivery{
	{"content", func(t *testing.T, s *sitemap.S, srv *ct2Server, path string, body []byte) (*sitemap.S, error) {
		content := string(body)
		return s.Parse(srv.URL(path), &content)
	}},
	{"served", func(t *testing.T, s *sitemap.S, srv *ct2Server, path string, body []byte) (*sitemap.S, error) {
		srv.Bytes(path, body)
		return s.Parse(srv.URL(path), nil)
	}},
	{"trickled", func(t *testing.T, s *sitemap.S, srv *ct2Server, path string, body []byte) (*sitemap.S, error) {
		srv.Trickle(path, body)
		return s.Parse(srv.URL(path), nil)
	}},
	{"OneByteReader", func(t *testing.T, s *sitemap.S, srv *ct2Server, path string, body []byte) (*sitemap.S, error) {
		srv.Bytes(path, body)
		s.SetHTTPClient(&http.Client{Transport: &ct2Transport{wrap: iotest.OneByteReader}})
		return s.Parse(srv.URL(path), nil)
	}},
	{"HalfReader", func(t *testing.T, s *sitemap.S, srv *ct2Server, path string, body []byte) (*sitemap.S, error) {
		srv.Bytes(path, body)
		s.SetHTTPClient(&http.Client{Transport: &ct2Transport{wrap: iotest.HalfReader}})
		return s.Parse(srv.URL(path), nil)
	}},
}

// ct2ManualCtx is a context that the test ends when it chooses, with the
// error it chooses (context.DeadlineExceeded for a deadline that passes at a
// known moment).
type ct2ManualCtx struct {
	done chan struct{}
	once sync.Once
	mu   sync.Mutex
	err  error
}

func ct2NewManualCtx() *ct2ManualCtx { return &ct2ManualCtx{done: make(chan struct{})} }

func (c *ct2ManualCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *ct2ManualCtx) Done() <-chan struct{}       { return c.done }
func (c *ct2ManualCtx) Value(any) any               { return nil }
func (c *ct2ManualCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// end ends the context with err.
func (c *ct2ManualCtx) end(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

var _ context.Context = (*ct2ManualCtx)(nil)
