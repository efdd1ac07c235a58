package sitemap_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// loopbackClient returns a client whose every connection goes to srv on
// loopback, whatever host the URL names, so that a test can request
// http://example.com/ or http://bücher.example/ without leaving the machine.
func loopbackClient(t *testing.T, srv *httptest.Server) *http.Client {
	addr := srv.Listener.Addr().String()
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// GETSITEMAPS-16 (decision): a sitemap listed again keeps the place of its
// first listing, with the latest date; in strict mode, which gives URLs as
// written, the spellings of one URL (host case, default port) are one
// sitemap, listed as first written and requested once.
func TestSitemapListedOnce(t *testing.T) {
	for _, strict := range []bool{false, true} {
		s, _ := offline()
		index := index("https://example.com/a.xml|2024-01-01T00:00:00Z", "https://example.com/b.xml", "https://example.com/a.xml|2024-06-01T00:00:00Z")
		if _, err := s.SetStrict(strict).SetFollow([]string{`^$`}).Parse("https://example.com/index.xml", &index); err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		sms := s.GetSitemaps()
		equalStrings(t, fmt.Sprintf("strict=%v: sitemaps", strict), sitemapLocsOf(sms), []string{"https://example.com/a.xml", "https://example.com/b.xml"})
		if len(sms) == 2 && (sms[0].LastMod == nil || !sms[0].LastMod.Equal(mustDate(t, "2024-06-01T00:00:00Z"))) {
			t.Errorf("strict=%v: a.xml LastMod %v, want the later date", strict, sms[0].LastMod)
		}
	}

	srv := serveDocs(t, map[string]string{"/s.xml": "http://example.com/page\n"})
	for _, spellings := range [][]string{
		{"http://example.com/s.xml", "http://EXAMPLE.com/s.xml", "http://example.com:80/s.xml"},
		{"http://Example.COM:80/s.xml", "http://example.com/s.xml"},
	} {
		before := len(srv.HostLog())
		index := index(spellings...)
		s := sitemap.New().SetStrict(true).SetMultiThread(false).SetHTTPClient(loopbackClient(t, srv.Server))
		if _, err := s.Parse("http://example.com/index.xml", &index); err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), spellings[:1])
		if got := srv.HostLog()[before:]; len(got) != 1 {
			t.Errorf("requests %q, want one", got)
		}
	}
}

// IDN-11 (decision): in strict mode a sitemap written with its host in
// Unicode and in Punycode is one sitemap: listed once, as first written,
// and requested once.
func TestStrictIDNSitemapOnce(t *testing.T) {
	srv := serveDocs(t, map[string]string{"/s.xml": "http://xn--bcher-kva.example/page\n"})
	for _, spellings := range [][]string{
		{"http://b\u00fccher.example/s.xml", "http://xn--bcher-kva.example/s.xml"},
		{"http://xn--bcher-kva.example/s.xml", "http://b\u00fccher.example/s.xml"},
	} {
		before := len(srv.HostLog())
		index := index(spellings...)
		s := sitemap.New().SetStrict(true).SetMultiThread(false).SetHTTPClient(loopbackClient(t, srv.Server))
		if _, err := s.Parse("http://b\u00fccher.example/index.xml", &index); err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), spellings[:1])
		equalStrings(t, "requests", srv.HostLog()[before:], []string{"xn--bcher-kva.example/s.xml"})
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"http://xn--bcher-kva.example/page"})
	}
}

// REDIRECT-10 (open; decided in issue 13: a redirect whose final URL has
// the key of a sitemap requested already is not read, or an index whose
// sitemaps redirect back to it is read once for each): two sitemaps that
// redirect to the same URL are each requested, redirect included, and the
// document they lead to is read once, its URLs kept once.
func TestRedirectsToOneFinalURL(t *testing.T) {
	srv := newServer(t)
	srv.Redirect("/a.xml", "/final.xml")
	srv.Redirect("/b.xml", "/final.xml")
	srv.Doc("/final.xml", urlset("https://example.com/page"))
	index := index(srv.At("/a.xml"), srv.At("/b.xml"))
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.At("/index.xml"), &index)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	noErrors(t, s)
	equalStrings(t, "requests", srv.Log(), []string{"/a.xml", "/final.xml", "/b.xml", "/final.xml"})
	equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.At("/a.xml"), srv.At("/b.xml")})
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/page"})
}

// CTX-10 (open; pinned as the code has it, with the decisions on a root
// request cut short and on CTX-11): a context already done when the call
// starts cuts it short like one that ends later. The request for the root
// fails at once with its *NetworkError alone (CTX-9); content passed in
// stops at the parse's first check (CTX-11), before anything of it is
// read, and the call returns one *ParseError for the root, whatever the
// content lists.
func TestContextDoneBeforeTheCall(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	srv := newServer(t)
	srv.Doc("/sitemap.xml", urlset("https://example.com/a"))
	srv.Doc("/s.xml", urlset("https://example.com/s"))

	t.Run("fetched", func(t *testing.T) {
		s, err := sitemap.New().ParseContext(done, srv.At("/sitemap.xml"), nil)
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || !errors.Is(err, context.Canceled) || nerr.URL != srv.At("/sitemap.xml") {
			t.Fatalf("ParseContext error = %v, want the *NetworkError of the root wrapping context.Canceled", err)
		}
		if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
			t.Errorf("errors %q, want the one returned", messagesOf(errs))
		}
	})
	t.Run("content of an index", func(t *testing.T) {
		index := index(srv.At("/s.xml"))
		s, err := sitemap.New().ParseContext(done, srv.At("/index.xml"), &index)
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || perr.URL != srv.At("/index.xml") || perr.Err != context.Canceled {
			t.Fatalf("ParseContext error = %v, want a *ParseError naming the root, wrapping context.Canceled", err)
		}
		if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
			t.Errorf("errors %q, want the one returned", messagesOf(errs))
		}
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), nil)
	})
	t.Run("content of a urlset", func(t *testing.T) {
		content := urlset("https://example.com/p")
		s, err := sitemap.New().ParseContext(done, srv.At("/pages.xml"), &content)
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || perr.URL != srv.At("/pages.xml") || perr.Err != context.Canceled {
			t.Fatalf("ParseContext error = %v, want a *ParseError naming the root, wrapping context.Canceled", err)
		}
		if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
			t.Errorf("errors %q, want the one returned", messagesOf(errs))
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), nil)
	})
	if srv.Total() != 0 {
		t.Errorf("requested %q", srv.Log())
	}
}

// cancelMidBody is a transport that reads the whole response for path
// and hands it on in two halves, ending the context between them: the
// context ends while the document, all of it received, is being parsed.
type cancelMidBody struct {
	path   string
	cancel context.CancelFunc
}

func (c *cancelMidBody) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.URL.Path != c.path {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	half := len(body) / 2
	var once sync.Once
	second := readerFunc(func(p []byte) (int, error) {
		once.Do(c.cancel)
		return 0, io.EOF
	})
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body[:half]), second, bytes.NewReader(body[half:])))
	return resp, nil
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// CTX-11 (decided), CTX-8: a context that ends while a sitemap is parsed
// stops the parse at its next read and does not discard the sitemap: the
// complete entries read until then are kept (here, all: the rest of the
// body came with the read that the cancel happened in), its request, in
// progress, is its *NetworkError, the next sitemap is not requested, and
// the call returns the one *ParseError of a call cut short.
func TestCancelWhileASitemapIsParsed(t *testing.T) {
	srv := newServer(t)
	srv.Doc("/a.xml", urlset(pages("a", 40)...))
	srv.Doc("/b.xml", urlset("https://example.com/b"))
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := sitemap.New().SetMultiThread(false).SetHTTPClient(&http.Client{Transport: &cancelMidBody{path: "/a.xml", cancel: cancel}})
	_, err := s.ParseContext(ctx, srv.At("/index.xml"), nil)
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) || perr.URL != srv.At("/index.xml") || perr.Err != context.Canceled {
		t.Fatalf("ParseContext error = %v, want the *ParseError of a call cut short", err)
	}
	var nerr *sitemap.NetworkError
	if errs := s.GetErrors(); len(errs) != 2 || !errors.As(errs[0], &nerr) || nerr.URL != srv.At("/a.xml") || !errors.Is(nerr, context.Canceled) || errs[1] != err {
		t.Errorf("errors %q, want the *NetworkError of /a.xml and the one returned", messagesOf(errs))
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), pages("a", 40))
	equalStrings(t, "requests", srv.Log(), []string{"/index.xml", "/a.xml"})
}

// checkCut checks the outcome of a call cut short: it returns the
// *ParseError naming root and wrapping cause, recorded once, and the
// *NetworkError of every request that was under way, wrapping cause too.
// wantNet are the paths of those requests.
func checkCut(t *testing.T, s *sitemap.S, err error, srv *server, root string, cause error, wantNet []string) {
	t.Helper()
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) || perr.URL != root || !errors.Is(err, cause) {
		t.Fatalf("Parse error = %v, want *ParseError naming %s wrapping %v", err, root, cause)
	}
	if perr.Err != cause {
		t.Errorf("ParseError.Err = %v, want the error of the context itself", perr.Err)
	}
	errs := s.GetErrors()
	calls := 0
	for _, e := range errs {
		if e == err {
			calls++
		}
	}
	if calls != 1 {
		t.Errorf("the returned error is %d times in GetErrors, want once: %q", calls, messagesOf(errs))
	}
	var net []string
	for _, n := range errorsOf[*sitemap.NetworkError](errs) {
		if !errors.Is(n, cause) {
			t.Errorf("%v does not wrap %v", n, cause)
		}
		net = append(net, n.URL)
	}
	var want []string
	for _, p := range wantNet {
		want = append(want, srv.At(p))
	}
	// In which order requests under way fail is up to the scheduler.
	slices.Sort(net)
	slices.Sort(want)
	equalStrings(t, "requests cut", net, want)
	if len(errs) != 1+len(wantNet) {
		t.Errorf("errors %q: nothing else is recorded", messagesOf(errs))
	}
}

// ender ends a context: with cancel, or as a deadline that passes.
type ender struct {
	name  string
	cause error
	make  func() (context.Context, func())
}

var enders = []ender{
	{"cancel", context.Canceled, func() (context.Context, func()) {
		return context.WithCancel(context.Background())
	}},
	{"deadline", context.DeadlineExceeded, func() (context.Context, func()) {
		c := newManualCtx()
		return c, func() { c.end(context.DeadlineExceeded) }
	}},
}

func TestContextCutWhileASitemapIsFetched(t *testing.T) {
	// CTX-1, CTX-2, CTX-3, CTX-5, CTX-6, CTX-7, CTX-8, MAXCONC-7: the
	// sitemap under way is reported, the ones not reached are not; what was
	// collected before is kept. With a concurrency of 1 the sitemaps after
	// the held one wait for a slot, and the wait ends at once.
	for _, end := range enders {
		for _, mode := range []string{"sequential", "multi, 1 slot"} {
			t.Run(end.name+"/"+mode, func(t *testing.T) {
				srv := newServer(t)
				arrived := make(chan string, 1)
				aborted := make(chan struct{})
				srv.Doc("/u.xml", urlset("https://example.com/u1", "https://example.com/u2"))
				srv.Doc("/i.xml", index(srv.At("/hold.xml"), srv.At("/never-1.xml"), srv.At("/never-2.xml")))
				srv.Handle("/hold.xml", func(w http.ResponseWriter, r *http.Request) {
					arrived <- r.URL.Path
					select {
					case <-r.Context().Done():
						close(aborted)
					case <-srv.stop:
					}
				})
				srv.Doc("/never-1.xml", urlset("https://example.com/n1"))
				srv.Doc("/never-2.xml", urlset("https://example.com/n2"))
				// /hold.xml is on the second level, so that the context
				// reaches nested requests (CTX-1); nothing else is listed
				// after /i.xml, so that with one slot /hold.xml is the
				// next request and the ones after it wait for its slot.
				srv.Doc("/index.xml", index(srv.At("/u.xml"), srv.At("/i.xml")))
				ctx, stop := end.make()
				defer stop()
				s := sitemap.New()
				if mode == "sequential" {
					s.SetMultiThread(false)
				} else {
					s.SetMaxConcurrency(1)
				}
				wait := async(t, func() (*sitemap.S, error) { return s.ParseContext(ctx, srv.At("/index.xml"), nil) })
				recv(t, arrived, "the held request")
				stop()
				s, err := wait()
				checkCut(t, s, err, srv, srv.At("/index.xml"), end.cause, []string{"/hold.xml"})
				recv(t, aborted, "the held request to be aborted")
				equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/u1", "https://example.com/u2"})
				for _, p := range []string{"/never-1.xml", "/never-2.xml"} {
					if srv.Hits(p) != 0 {
						t.Errorf("%s requested after the call was cut", p)
					}
				}
				// GETSITEMAPS: what the indexes read listed is kept.
				if s.GetSitemapCount() != 5 {
					t.Errorf("%d sitemaps listed", s.GetSitemapCount())
				}
			})
		}
	}
}

func TestContextCutManyInFlight(t *testing.T) {
	// CTX-6, CTX-8: with every sitemap under way, each is reported and the
	// call once.
	for _, end := range enders {
		t.Run(end.name, func(t *testing.T) {
			srv := newServer(t)
			const n = 6
			arrived := make(chan string, n)
			var locs, paths []string
			for i := 1; i <= n; i++ {
				p := fmt.Sprintf("/hold-%d.xml", i)
				srv.Block(p, arrived)
				locs = append(locs, srv.At(p))
				paths = append(paths, p)
			}
			srv.Doc("/index.xml", index(locs...))
			ctx, stop := end.make()
			defer stop()
			wait := async(t, func() (*sitemap.S, error) {
				return sitemap.New().SetMaxConcurrency(0).ParseContext(ctx, srv.At("/index.xml"), nil)
			})
			for range n {
				recv(t, arrived, "the held requests")
			}
			stop()
			s, err := wait()
			errs := s.GetErrors()
			if len(errorsOf[*sitemap.NetworkError](errs)) != n {
				t.Errorf("errors %q, want a *NetworkError for each of %d sitemaps", messagesOf(errs), n)
			}
			checkCut(t, s, err, srv, srv.At("/index.xml"), end.cause, paths)
		})
	}
}

func TestContextCutTheRoot(t *testing.T) {
	// CTX-9: when the request for the root is cut, the call returns and
	// records that *NetworkError alone: before the headers, and while the
	// body is read.
	for _, end := range enders {
		for _, midBody := range []bool{false, true} {
			for _, multi := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/midBody=%v/multi=%v", end.name, midBody, multi), func(t *testing.T) {
					srv := newServer(t)
					arrived := make(chan string, 1)
					srv.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
						if midBody {
							w.Write([]byte("Sitemap: " + srv.At("/a.xml") + "\nSitemap: "))
							w.(http.Flusher).Flush()
						}
						arrived <- r.URL.Path
						select {
						case <-r.Context().Done():
						case <-srv.stop:
						}
					})
					srv.Doc("/a.xml", urlset("https://example.com/a"))
					ctx, stop := end.make()
					defer stop()
					wait := async(t, func() (*sitemap.S, error) {
						return sitemap.New().SetMultiThread(multi).ParseContext(ctx, srv.At("/robots.txt"), nil)
					})
					recv(t, arrived, "the root request")
					stop()
					s, err := wait()
					var nerr *sitemap.NetworkError
					if !errors.As(err, &nerr) || nerr.URL != srv.At("/robots.txt") || !errors.Is(err, end.cause) {
						t.Fatalf("Parse error = %v, want *NetworkError for the root wrapping %v", err, end.cause)
					}
					if got := s.GetErrors(); len(got) != 1 || got[0] != err {
						t.Errorf("GetErrors = %q, want the *NetworkError alone", messagesOf(got))
					}
					// CTX-11: the complete line read before the cut, if the
					// parse had come to it, is kept; the line cut in two
					// is not, and nothing is requested after.
					if n := s.GetSitemapCount(); srv.Hits("/a.xml") != 0 || s.GetURLCount() != 0 || n > 1 || n == 1 && s.GetSitemaps()[0].Loc != srv.At("/a.xml") {
						t.Errorf("the cut root yielded: requests %q, %d URLs, sitemaps %q", srv.Log(), s.GetURLCount(), sitemapLocsOf(s.GetSitemaps()))
					}
				})
			}
		}
	}
}

func TestContextCutWhileASitemapBodyIsRead(t *testing.T) {
	// CTX-8: a request whose body was being read when the context ended is
	// a *NetworkError too, not a *ParseError, and nothing of it is kept.
	srv := newServer(t)
	arrived := make(chan string, 1)
	body := urlset("https://example.com/p1", "https://example.com/p2", "https://example.com/p3")
	srv.Handle("/half.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body[:len(body)/2]))
		w.(http.Flusher).Flush()
		arrived <- r.URL.Path
		select {
		case <-r.Context().Done():
		case <-srv.stop:
		}
	})
	content := index(srv.At("/half.xml"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := async(t, func() (*sitemap.S, error) {
		return sitemap.New().ParseContext(ctx, srv.At("/index.xml"), &content)
	})
	recv(t, arrived, "the request")
	cancel()
	s, err := wait()
	checkCut(t, s, err, srv, srv.At("/index.xml"), context.Canceled, []string{"/half.xml"})
	if s.GetURLCount() != 0 {
		t.Errorf("kept %d URLs of a document cut in two", s.GetURLCount())
	}
}

func TestContextRealDeadline(t *testing.T) {
	t.Parallel() // it waits for a real deadline and measures no heap: beside the others
	// CTX-5, CTX-6, CTX-8 with a real deadline: when it passes is up to the
	// clock, so only what holds whenever it passes is checked.
	srv := newServer(t)
	var locs []string
	for i := 1; i <= 4; i++ {
		p := fmt.Sprintf("/hold-%d.xml", i)
		srv.Block(p, nil)
		locs = append(locs, srv.At(p))
	}
	content := index(locs...)
	for _, multi := range []bool{true, false} {
		t.Run(fmt.Sprint(multi), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			var s *sitemap.S
			var err error
			guard(t, guardTimeout, func() {
				s, err = sitemap.New().SetMultiThread(multi).ParseContext(ctx, srv.At("/index.xml"), &content)
			})
			var perr *sitemap.ParseError
			if !errors.As(err, &perr) || perr.URL != srv.At("/index.xml") || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Parse error = %v", err)
			}
			for _, e := range s.GetErrors() {
				var nerr *sitemap.NetworkError
				switch {
				case e == err:
				case errors.As(e, &nerr) && errors.Is(e, context.DeadlineExceeded):
				default:
					t.Errorf("unexpected error %v", e)
				}
			}
			if len(errorsOf[*sitemap.ParseError](s.GetErrors())) != 1 {
				t.Errorf("errors %q: the call is reported once", messagesOf(s.GetErrors()))
			}
		})
	}
}
