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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gositemap/sitemap"
)

// Helpers of the black-box suites of fetch, decode, limits, scheduler,
// context, redirects, encoding and robots.txt. Every name starts with ct2,
// so that they do not clash with the helpers of the other test files.

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

	mu     sync.Mutex
	routes map[string]http.HandlerFunc
	docs   map[string]string // read at each request, for a path without a route (serveDocs)
	log    []string          // the path (with query) of every request, in order
	agents []string          // the User-Agent of every request, in order
	hosts  []string          // the Host and path of every request, in order

	inflight, maxInflight atomic.Int64
}

// newServer starts a server with no routes; it is closed when the test
// ends.
func newServer(t testing.TB) *server {
	t.Helper()
	s := &server{stop: make(chan struct{}), routes: map[string]http.HandlerFunc{}}
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
	h := s.routes[r.URL.Path]
	doc, isDoc := s.docs[r.URL.Path]
	s.mu.Unlock()
	switch {
	case h != nil:
		h(w, r)
	case isDoc:
		io.WriteString(w, doc)
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
		s = &server{stop: make(chan struct{}), routes: map[string]http.HandlerFunc{}}
		s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	} else {
		t.Helper()
		s = newServer(t)
	}
	s.docs = docs
	return s
}

// Handle serves path with h.
func (s *server) Handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes[path] = h
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

// countingTransport is an http.RoundTripper that counts the requests that go
// through it, and can hand the body of every response through a wrapper,
// such as iotest.OneByteReader.
type countingTransport struct {
	base http.RoundTripper
	wrap func(io.Reader) io.Reader
	n    atomic.Int64

	mu   sync.Mutex
	reqs []*http.Request
}

func (tr *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
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

// Deadlines returns the deadline of the context of every request, in
// order: zero where the request had none.
func (tr *countingTransport) Deadlines() []time.Time {
	var out []time.Time
	for _, r := range tr.Requests() {
		d, _ := r.Context().Deadline()
		out = append(out, d)
	}
	return out
}

// Requests returns the requests that went through the transport.
func (tr *countingTransport) Requests() []*http.Request {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.reqs)
}

// fakeWeb is an http.RoundTripper that answers from a map of absolute URLs
// to documents and never touches the network, so that tests can use hosts
// such as example.com. An unknown URL is a 404; a document that begins
// with fakeRedirect is a 302.
type fakeWeb struct {
	mu   sync.Mutex
	docs map[string]string
	log  []string
}

// fakeRedirect begins a document of fakeWeb that is a redirect to the
// URL that follows it.
const fakeRedirect = "REDIRECT "

func newFakeWeb(docs map[string]string) *fakeWeb { return &fakeWeb{docs: docs} }

func (f *fakeWeb) RoundTrip(req *http.Request) (*http.Response, error) {
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
	case strings.HasPrefix(body, fakeRedirect):
		status, code = "302 Found", http.StatusFound
		header.Set("Location", strings.TrimPrefix(body, fakeRedirect))
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
func (f *fakeWeb) Log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}

// Client returns a client that sends every request to f.
func (f *fakeWeb) Client() *http.Client { return &http.Client{Transport: f} }

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
		s.SetHTTPClient(&http.Client{Transport: &countingTransport{wrap: iotest.OneByteReader}})
		return s.Parse(srv.At(path), nil)
	}},
	{"HalfReader", func(t *testing.T, s *sitemap.S, srv *server, path string, body []byte) (*sitemap.S, error) {
		srv.Bytes(path, body)
		s.SetHTTPClient(&http.Client{Transport: &countingTransport{wrap: iotest.HalfReader}})
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
func (c *manualCtx) Done() <-chan struct{}       { return c.done }
func (c *manualCtx) Value(any) any               { return nil }
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
