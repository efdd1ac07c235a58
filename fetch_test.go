package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// smallSite serves a small site of every level: a robots.txt naming an index
// and a urlset, the index listing a urlset, a text sitemap and a sitemap
// that is not there. It returns how many requests a call makes.
func smallSite(srv *server) int {
	srv.Doc("/robots.txt", "User-agent: *\nSitemap: "+srv.At("/index.xml")+"\nSitemap: "+srv.At("/top.xml")+"\n")
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.txt"), srv.At("/missing.xml")))
	srv.Doc("/top.xml", urlset("https://example.com/top"))
	srv.Doc("/a.xml", urlset("https://example.com/a"))
	srv.Doc("/b.txt", "https://example.com/b\n")
	return 6
}

func TestUserAgentOnEveryRequest(t *testing.T) {
	// UA-1, UA-3, CONFIG-1 (decision: the default names this project)
	if !regexp.MustCompile(`^\S+ \(\+https://\S+/README\.md\)$`).MatchString(sitemap.DefaultUserAgent) {
		t.Errorf("DefaultUserAgent %q is not of the form NAME (+URL of its README)", sitemap.DefaultUserAgent)
	}
	tests := []struct {
		name   string
		ua     string // "" keeps the default
		client bool
	}{
		{"default", "", false},
		{"set", "MyBot/1.0 (+https://example.com/bot)", false},
		{"set, custom client", "MyBot/2.0", true},
		{"default, custom client", "", true},
	}
	for _, tt := range tests {
		for _, multi := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/multi=%v", tt.name, multi), func(t *testing.T) {
				srv := newServer(t)
				n := smallSite(srv)
				s := sitemap.New().SetMultiThread(multi)
				want := sitemap.DefaultUserAgent
				if tt.ua != "" {
					s.SetUserAgent(tt.ua)
					want = tt.ua
				}
				if tt.client {
					s.SetHTTPClient(&http.Client{})
				}
				if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
					t.Fatalf("Parse: %v", err)
				}
				agents := srv.Agents()
				if len(agents) != n {
					t.Fatalf("%d requests, want %d: %q", len(agents), n, srv.Log())
				}
				for i, a := range agents {
					if a != want {
						t.Errorf("request %s: User-Agent %q, want %q", srv.Log()[i], a, want)
					}
				}
			})
		}
	}
}

func TestCustomClientForEveryRequest(t *testing.T) {
	// CLIENT-1: every request of the instance goes through the client, on
	// every level, in both modes and over several calls.
	for _, multi := range []bool{true, false} {
		t.Run(fmt.Sprint(multi), func(t *testing.T) {
			srv := newServer(t)
			n := smallSite(srv)
			tr := &web{net: true}
			client := &http.Client{Transport: tr}
			s := sitemap.New().SetMultiThread(multi).SetHTTPClient(client)
			if s.GetHTTPClient() != client {
				t.Fatal("GetHTTPClient does not return the client set")
			}
			for call := 1; call <= 2; call++ {
				if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if got := tr.n.Load(); got != int64(call*n) || srv.Total() != call*n {
					t.Errorf("call %d: %d requests through the client, %d on the server; want %d", call, got, srv.Total(), call*n)
				}
			}
			if s.GetURLCount() != 3 {
				t.Errorf("%d URLs", s.GetURLCount())
			}
		})
	}
}

func TestCustomClientNotChanged(t *testing.T) {
	// The caller's client is used as it is and never changed.
	srv := newServer(t)
	smallSite(srv)
	tr := &web{net: true}
	client := &http.Client{Transport: tr, Timeout: 7 * time.Second}
	if _, err := sitemap.SetFetchTimeoutForTest(sitemap.New(), time.Nanosecond).SetHTTPClient(client).Parse(srv.At("/robots.txt"), nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if client.Transport != tr || client.Timeout != 7*time.Second || client.CheckRedirect != nil || client.Jar != nil {
		t.Errorf("client changed: %+v", client)
	}
}

func TestCustomClientNilResets(t *testing.T) {
	// CLIENT-2, GETCONF-4
	srv := newServer(t)
	n := smallSite(srv)
	tr := &web{net: true}
	s := sitemap.New().SetHTTPClient(&http.Client{Transport: tr}).SetHTTPClient(nil)
	if s.GetHTTPClient() != nil {
		t.Error("GetHTTPClient is not nil after SetHTTPClient(nil)")
	}
	if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if tr.n.Load() != 0 || srv.Total() != n {
		t.Errorf("%d requests through the old client, %d on the server", tr.n.Load(), srv.Total())
	}
	if s.GetURLCount() != 3 || s.GetErrorsCount() != 1 {
		t.Errorf("%d URLs, errors %q", s.GetURLCount(), messagesOf(s.GetErrors()))
	}
}

func TestCustomClientCheckRedirectDecides(t *testing.T) {
	// CLIENT-3, REDIRECT-9
	errNoRedirects := errors.New("redirects are not followed here")
	srv := newServer(t)
	for i := 1; i <= 15; i++ {
		srv.Redirect(fmt.Sprintf("/r/%d", i), fmt.Sprintf("/r/%d", i-1))
	}
	srv.Doc("/r/0", urlset("https://example.com/end"))
	t.Run("last response", func(t *testing.T) {
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		_, err := sitemap.New().SetHTTPClient(client).Parse(srv.At("/r/1"), nil)
		want := fmt.Sprintf(`fetch %q: unexpected HTTP status 302 Found`, srv.At("/r/1"))
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || err.Error() != want {
			t.Errorf("Parse error = %v, want %s", err, want)
		}
	})
	t.Run("error", func(t *testing.T) {
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return errNoRedirects }}
		_, err := sitemap.New().SetHTTPClient(client).Parse(srv.At("/r/1"), nil)
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || nerr.URL != srv.At("/r/1") || !errors.Is(err, errNoRedirects) {
			t.Errorf("Parse error = %v, want *NetworkError for /r/1 wrapping the CheckRedirect error", err)
		}
	})
	t.Run("more than the default", func(t *testing.T) {
		client := &http.Client{CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) > 20 {
				return errNoRedirects
			}
			return nil
		}}
		s, err := sitemap.New().SetHTTPClient(client).Parse(srv.At("/r/15"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/end"})
	})
}

func TestFetchTimeoutNoEffectWithCustomClient(t *testing.T) {
	// TIMEOUT-4: with a custom client the client's Timeout applies and the
	// fetch timeout does not: a fetch timeout of a nanosecond, which no
	// request meets, fails none of them; a request gets the client's
	// deadline or none.
	srv := newServer(t)
	srv.Doc("/sitemap.xml", urlset("https://example.com/a"))
	for _, tt := range []struct {
		name     string
		timeout  time.Duration
		deadline bool
	}{{"client without timeout", 0, false}, {"client with its own timeout", time.Hour, true}} {
		t.Run(tt.name, func(t *testing.T) {
			tr := &web{net: true}
			s := sitemap.SetFetchTimeoutForTest(sitemap.New(), time.Nanosecond).SetMultiThread(false)
			s, err := s.SetHTTPClient(&http.Client{Transport: tr, Timeout: tt.timeout}).Parse(srv.At("/sitemap.xml"), nil)
			if err != nil || s.GetURLCount() != 1 {
				t.Fatalf("Parse: %v, %d URLs", err, s.GetURLCount())
			}
			deadlines := tr.Deadlines()
			if len(deadlines) != 1 || deadlines[0].IsZero() == tt.deadline {
				t.Errorf("request deadlines %v; want one, set %v", deadlines, tt.deadline)
			}
		})
	}
}

func TestFetchTimeout(t *testing.T) {
	// TIMEOUT-3: with the default client a request that takes longer than
	// the fetch timeout fails with a *NetworkError. The server holds the
	// request until the test ends, so only the timeout ends it; that the
	// seconds set become the client's Timeout, rather than the default's, is
	// TestFetchTimeoutIsTheClientTimeout's.
	t.Run("root", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t)
		srv.Block("/slow.xml", nil)
		var s *sitemap.S
		var err error
		guard(t, guardTimeout, func() { s, err = shortTimeout().Parse(srv.At("/slow.xml"), nil) })
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || nerr.URL != srv.At("/slow.xml") || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Parse error = %v, want *NetworkError for /slow.xml that is a timeout", err)
		}
		if got := s.GetErrors(); len(got) != 1 || got[0] != err {
			t.Errorf("GetErrors = %q", messagesOf(got))
		}
	})
	t.Run("listed sitemap", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t)
		srv.Block("/slow.xml", nil)
		srv.Doc("/ok.xml", urlset("https://example.com/ok"))
		srv.Doc("/index.xml", index(srv.At("/slow.xml"), srv.At("/ok.xml")))
		var s *sitemap.S
		var err error
		guard(t, guardTimeout, func() { s, err = shortTimeout().Parse(srv.At("/index.xml"), nil) })
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		nerrs := errorsOf[*sitemap.NetworkError](s.GetErrors())
		if s.GetErrorsCount() != 1 || len(nerrs) != 1 || nerrs[0].URL != srv.At("/slow.xml") || !errors.Is(nerrs[0], context.DeadlineExceeded) {
			t.Errorf("errors %q", messagesOf(s.GetErrors()))
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/ok"})
	})
}

func TestFetchFailures(t *testing.T) {
	// PARSE-6, PARSE-13 (decision: any status but 200 is a *NetworkError),
	// ERRORS-4: as the root, and as a listed sitemap.
	tests := []struct {
		name    string
		handler http.HandlerFunc
		cause   string // "" when not fixed
	}{
		{"404", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, "unexpected HTTP status 404 Not Found"},
		{"500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }, "unexpected HTTP status 500 Internal Server Error"},
		{"204", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }, "unexpected HTTP status 204 No Content"},
		{"203 with a sitemap", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(203)
			w.Write([]byte(urlset("https://example.com/x")))
		}, "unexpected HTTP status 203 Non-Authoritative Information"},
		{"301 without Location", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(301) }, "unexpected HTTP status 301 Moved Permanently"},
		{"body cut off", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "10000")
			w.Write([]byte(urlset("https://example.com/x", "https://example.com/y")[:150]))
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			srv.Handle("/bad.xml", tt.handler)
			srv.Doc("/ok.xml", urlset("https://example.com/ok"))
			srv.Doc("/index.xml", index(srv.At("/bad.xml"), srv.At("/ok.xml")))

			s, err := sitemap.New().Parse(srv.At("/bad.xml"), nil)
			var nerr *sitemap.NetworkError
			if !errors.As(err, &nerr) || nerr.URL != srv.At("/bad.xml") {
				t.Fatalf("Parse error = %v, want *NetworkError for /bad.xml", err)
			}
			if tt.cause != "" && err.Error() != fmt.Sprintf("fetch %q: %s", srv.At("/bad.xml"), tt.cause) {
				t.Errorf("message %q", err.Error())
			}
			if got := s.GetErrors(); len(got) != 1 || got[0] != err || s.GetURLCount() != 0 {
				t.Errorf("errors %q, %d URLs", messagesOf(got), s.GetURLCount())
			}

			s, err = sitemap.New().Parse(srv.At("/index.xml"), nil)
			if err != nil {
				t.Fatalf("Parse: %v (a listed sitemap does not fail the call)", err)
			}
			nerrs := errorsOf[*sitemap.NetworkError](s.GetErrors())
			if s.GetErrorsCount() != 1 || len(nerrs) != 1 || nerrs[0].URL != srv.At("/bad.xml") {
				t.Errorf("errors %q", messagesOf(s.GetErrors()))
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/ok"})
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		srv := newServer(t)
		url := srv.At("/sitemap.xml")
		srv.Close()
		_, err := sitemap.New().Parse(url, nil)
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || nerr.URL != url || !strings.HasPrefix(err.Error(), fmt.Sprintf("fetch %q: ", url)) {
			t.Errorf("Parse error = %v, want *NetworkError for %s", err, url)
		}
	})
}

func TestUserAgentOnRedirects(t *testing.T) {
	// UA-1: a request that a redirect leads to carries the user agent too.
	srv := newServer(t)
	srv.Redirect("/old.xml", "/new.xml")
	srv.Doc("/new.xml", urlset("https://example.com/a"))
	if _, err := sitemap.New().SetUserAgent("RedirectBot/1").Parse(srv.At("/old.xml"), nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "requests", srv.Log(), []string{"/old.xml", "/new.xml"})
	equalStrings(t, "agents", srv.Agents(), []string{"RedirectBot/1", "RedirectBot/1"})
}

func TestRedirectSpecExample(t *testing.T) {
	// REDIRECT-1, REDIRECT-2, REDIRECT-3, REDIRECT-5, STRICT-3:
	// http://example.com/sitemap.xml redirects to
	// https://www.example.com/sitemap.xml.
	docs := map[string]string{
		"http://example.com/sitemap.xml": fakeRedirect + "https://www.example.com/sitemap.xml",
		"https://www.example.com/sitemap.xml": urlset(
			"/page",
			"https://www.example.com/on-final-host",
			"http://example.com/on-requested-host",
		),
	}
	t.Run("tolerant", func(t *testing.T) {
		fake := newFakeWeb(docs)
		s, err := sitemap.New().SetHTTPClient(fake.Client()).Parse("http://example.com/sitemap.xml", nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{
			"https://www.example.com/page",
			"https://www.example.com/on-final-host",
			"http://example.com/on-requested-host",
		})
	})
	t.Run("strict", func(t *testing.T) {
		fake := newFakeWeb(docs)
		s, err := sitemap.New().SetStrict(true).SetHTTPClient(fake.Client()).Parse("http://example.com/sitemap.xml", nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://www.example.com/on-final-host"})
		var rejected []string
		for _, v := range errorsOf[*sitemap.ValidationError](s.GetErrors()) {
			rejected = append(rejected, v.URL)
		}
		equalStrings(t, "rejected", rejected, []string{"/page", "http://example.com/on-requested-host"})
		if s.GetErrorsCount() != 2 {
			t.Errorf("errors %q", messagesOf(s.GetErrors()))
		}
	})
}

func TestRedirectAcrossServers(t *testing.T) {
	// REDIRECT-2, REDIRECT-3, REDIRECT-6, HOST-4: the root, a sitemap of an
	// index and one a robots.txt names, each redirected to another server.
	for _, via := range []string{"root", "index", "robots.txt"} {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", via, strict), func(t *testing.T) {
				a, b := newServer(t), newServer(t)
				b.Doc("/real/sitemap.xml", urlset(b.At("/on-b"), a.At("/on-a")))
				b.Doc("/real/tolerant.xml", urlset("/abs", "rel", b.At("/on-b")))
				name := "sitemap.xml"
				if !strict {
					name = "tolerant.xml"
				}
				a.Redirect("/"+name, b.At("/real/"+name))
				a.Doc("/index.xml", index(a.At("/"+name)))
				a.Doc("/robots.txt", "Sitemap: "+a.At("/"+name)+"\n")
				root := map[string]string{"root": "/" + name, "index": "/index.xml", "robots.txt": "/robots.txt"}[via]
				s, err := sitemap.New().SetStrict(strict).Parse(a.At(root), nil)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if !strict {
					noErrors(t, s)
					equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{b.At("/abs"), b.At("/real/rel"), b.At("/on-b")})
					return
				}
				equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{b.At("/on-b")})
				hostA := strings.TrimPrefix(a.At(""), "http://")
				hostB := strings.TrimPrefix(b.At(""), "http://")
				equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{
					fmt.Sprintf(`validate %q: strict mode: host %q does not match sitemap host %q`, a.At("/on-a"), hostA, hostB),
				})
			})
		}
	}
}

func TestRedirectErrorsNameFinalURL(t *testing.T) {
	// REDIRECT-4, ERRORS-5: errors about the document name the URL it was
	// served from; a failed fetch names the URL requested (REDIRECT-9).
	srv := newServer(t)
	srv.Redirect("/broken.xml", "/final/broken.xml")
	srv.Doc("/final/broken.xml", "<urlset xmlns=\""+sitemapNS+"\"><url><loc>https://example.com/x</loc>")
	srv.Redirect("/noloc.xml", "/final/noloc.xml")
	srv.Doc("/final/noloc.xml", urlset("", "https://example.com/ok"))
	srv.Redirect("/gone.xml", "/final/gone.xml")
	srv.Redirect("/empty.xml", "/final/empty.xml")
	srv.Doc("/final/empty.xml", "")

	t.Run("broken as root", func(t *testing.T) {
		_, err := sitemap.New().Parse(srv.At("/broken.xml"), nil)
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || perr.URL != srv.At("/final/broken.xml") {
			t.Errorf("Parse error = %v, want *ParseError naming /final/broken.xml", err)
		}
	})
	t.Run("empty as root", func(t *testing.T) {
		_, err := sitemap.New().Parse(srv.At("/empty.xml"), nil)
		if want := fmt.Sprintf(`parse %q: document is empty`, srv.At("/final/empty.xml")); err == nil || err.Error() != want {
			t.Errorf("Parse error = %v, want %s", err, want)
		}
	})
	t.Run("entry without location", func(t *testing.T) {
		s, err := sitemap.New().Parse(srv.At("/noloc.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`validate %q: <loc> of an entry is empty or missing`, srv.At("/final/noloc.xml"))})
	})
	t.Run("fetch fails after the redirect", func(t *testing.T) {
		_, err := sitemap.New().Parse(srv.At("/gone.xml"), nil)
		want := fmt.Sprintf(`fetch %q: unexpected HTTP status 404 Not Found`, srv.At("/gone.xml"))
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || err.Error() != want {
			t.Errorf("Parse error = %v, want %s", err, want)
		}
	})
	t.Run("listed sitemaps", func(t *testing.T) {
		srv.Doc("/index.xml", index(srv.At("/broken.xml"), srv.At("/gone.xml")))
		s, err := sitemap.New().SetMultiThread(false).Parse(srv.At("/index.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		perrs := errorsOf[*sitemap.ParseError](s.GetErrors())
		nerrs := errorsOf[*sitemap.NetworkError](s.GetErrors())
		if s.GetErrorsCount() != 2 || len(perrs) != 1 || perrs[0].URL != srv.At("/final/broken.xml") || len(nerrs) != 1 || nerrs[0].URL != srv.At("/gone.xml") {
			t.Errorf("errors %q", messagesOf(s.GetErrors()))
		}
	})
}

func TestRedirectContentPassedIn(t *testing.T) {
	// REDIRECT-7: with urlContent nothing is fetched and the document is
	// located at the URL given, even where that URL would redirect.
	srv := newServer(t)
	srv.Redirect("/sitemap.xml", "/elsewhere/sitemap.xml")
	content := urlset("page", "/abs")
	s, err := sitemap.New().Parse(srv.At("/dir/sitemap.xml"), &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{srv.At("/dir/page"), srv.At("/abs")})
	if srv.Total() != 0 {
		t.Errorf("requested %q", srv.Log())
	}
}

func TestRedirectDefaultClientStopsAfterTen(t *testing.T) {
	// REDIRECT-8, REDIRECT-9: the default client follows 9 redirects (10
	// requests) and stops at the 10th; the error names the URL requested.
	srv := newServer(t)
	for i := 1; i <= 10; i++ {
		srv.Redirect(fmt.Sprintf("/r/%d", i), fmt.Sprintf("/r/%d", i-1))
	}
	srv.Doc("/r/0", urlset("https://example.com/end"))
	srv.Redirect("/loop", "/loop")

	s, err := sitemap.New().Parse(srv.At("/r/9"), nil)
	if err != nil {
		t.Fatalf("9 redirects: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/end"})

	for _, p := range []string{"/r/10", "/loop"} {
		before := srv.Total()
		_, err = sitemap.New().Parse(srv.At(p), nil)
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || nerr.URL != srv.At(p) || !strings.Contains(err.Error(), "stopped after 10 redirects") {
			t.Errorf("%s: Parse error = %v, want *NetworkError naming it, stopped after 10 redirects", p, err)
		}
		if n := srv.Total() - before; n != 10 {
			t.Errorf("%s: %d requests, want 10", p, n)
		}
	}
}

func TestRedirectListedByTheURLTheDocumentGives(t *testing.T) {
	// GETSITEMAPS-4: a sitemap reached through a redirect is listed by the
	// URL the document gives.
	srv := newServer(t)
	srv.Redirect("/old.xml", "/new.xml")
	srv.Doc("/new.xml", urlset("https://example.com/p"))
	srv.Doc("/index.xml", index(srv.At("/old.xml")))
	s, err := sitemap.New().Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.At("/old.xml")})
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/p"})
}
