package sitemap_test

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gositemap/sitemap"
)

// Issue 35: lint's page checks (LintOptions.CheckPages). The site is
// answered in the process, in a testing/synctest bubble: its clock is the
// bubble's, so the pace of one request a second a host is seen in the
// times of the requests without a second of waiting.

// pageHit is a request the site saw.
type pageHit struct {
	at     time.Time
	method string
	path   string
}

// pageSite is the site of the page checks: an index of two sitemaps whose
// pages answer 200, 404, 301, 500, a noindex meta, an X-Robots-Tag, a
// canonical to another page, a Last-Modified later than the lastmod, and
// one robots.txt disallows; /en and /de are alternates, /de answers 404.
// It logs every request.
type pageSite struct {
	mu   sync.Mutex
	hits []pageHit
}

const pageHead = `<!doctype html><html><head><title>a page</title>`

func (ps *pageSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ps.mu.Lock()
	ps.hits = append(ps.hits, pageHit{time.Now(), r.Method, r.URL.Path})
	ps.mu.Unlock()
	host := "http://" + r.Host
	alts := `<xhtml:link rel="alternate" hreflang="en" href="` + host + `/en"/><xhtml:link rel="alternate" hreflang="de" href="` + host + `/de"/>`
	html := func(head string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT")
		fmt.Fprint(w, pageHead+head+`</head><body><p>text</p></body></html>`)
	}
	switch r.URL.Path {
	case "/robots.txt":
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nSitemap: "+host+"/index.xml\n")
	case "/index.xml":
		fmt.Fprint(w, index(host+"/a.xml", host+"/b.xml"))
	case "/a.xml":
		fmt.Fprint(w, us(u(host+"/ok", "<lastmod>2024-01-10</lastmod>")+u(host+"/missing", "")+u(host+"/moved", "")+
			u(host+"/broken", "")+u(host+"/noindex", "")+u(host+"/xrobots", "")))
	case "/b.xml":
		fmt.Fprint(w, us(u(host+"/canonical", "")+u(host+"/stale", "<lastmod>2024-01-10</lastmod>")+u(host+"/private/page", "")+
			u(host+"/fine", "<lastmod>2024-01-10T08:00:00Z</lastmod>")+u(host+"/en", alts)+u(host+"/de", alts)))
	case "/ok", "/fine", "/en":
		html(`<link rel="canonical" href="` + r.URL.Path + `"><meta name="robots" content="index, follow"><meta name="otherbot" content="noindex">`)
	case "/missing", "/de":
		http.NotFound(w, r)
	case "/moved":
		http.Redirect(w, r, "/fine", http.StatusMovedPermanently)
	case "/broken":
		http.Error(w, "broken", http.StatusInternalServerError)
	case "/noindex":
		html(`<meta name="ROBOTS" content="noindex, follow">`)
	case "/xrobots":
		w.Header().Set("X-Robots-Tag", "noindex")
		html("")
	case "/canonical":
		html(`<link rel="canonical" href="/ok">`)
	case "/stale":
		w.Header().Set("Last-Modified", "Mon, 15 Jan 2024 10:00:00 GMT")
		fmt.Fprint(w, "plain text")
	case "/private/page":
		fmt.Fprint(w, "never asked for")
	default:
		http.NotFound(w, r)
	}
}

// pageFindings are the findings of the page checks, and of
// robots-disallowed, as "code path".
func pageFindings(fs []sitemap.Finding) []string {
	var out []string
	for _, f := range fs {
		if strings.HasPrefix(string(f.Code), "page-") || f.Code == sitemap.CodeLastmodStale ||
			f.Code == sitemap.CodeHreflangTargetStatus || f.Code == sitemap.CodeRobotsDisallowed {
			out = append(out, string(f.Code)+" "+strings.TrimPrefix(f.URL, "http://example.test"))
		}
	}
	slices.Sort(out)
	return out
}

// lintInProcess lints the site at http://example.test/index.xml through
// client, in the bubble of the caller.
func lintInProcess(t *testing.T, s *sitemap.S, o *sitemap.LintOptions) []sitemap.Finding {
	t.Helper()
	var fs []sitemap.Finding
	for f := range s.Lint(context.Background(), "http://example.test/index.xml", nil, o) {
		fs = append(fs, f)
	}
	return fs
}

func TestLintCheckPages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		site := &pageSite{}
		client := (&web{h: site}).Client()
		s := sitemap.New().SetHTTPClient(client)
		fs := lintInProcess(t, s, &sitemap.LintOptions{CheckPages: 50, Now: lintNow})
		want := []string{
			"hreflang-target-status /en",
			"lastmod-stale /stale",
			"page-canonical-other /canonical",
			"page-noindex /noindex",
			"page-noindex /xrobots",
			"page-redirect /moved",
			"page-status /broken",
			"page-status /de",
			"page-status /missing",
			"robots-disallowed /private/page",
		}
		if got := pageFindings(fs); !slices.Equal(got, want) {
			t.Errorf("findings:\n%s\nwant:\n%s\nall:%s", strings.Join(got, "\n"), strings.Join(want, "\n"), lintDump(fs))
		}
		for _, f := range fs {
			if f.Code == sitemap.CodePageRedirect && !strings.Contains(f.Message, "http://example.test/fine") {
				t.Errorf("page-redirect does not name where it ends: %s", f)
			}
			if strings.HasPrefix(string(f.Code), "page-") && (f.Document == "" || f.Line == 0) {
				t.Errorf("no place: %s", f)
			}
		}
		// The requests the site saw: none of the disallowed page, and
		// each of a page (HEAD and GET alike) at least a second after the
		// request before, of a page, a sitemap or robots.txt.
		for i, h := range site.hits {
			if h.path == "/private/page" {
				t.Errorf("the disallowed page was requested")
			}
			if i == 0 || strings.HasSuffix(h.path, ".xml") || h.path == "/robots.txt" {
				continue
			}
			if d := h.at.Sub(site.hits[i-1].at); d < time.Second {
				t.Errorf("%s %s %v after the request before", h.method, h.path, d)
			}
		}
	})
}

// The pages are spread across the sitemaps, and the same on every run.
func TestLintCheckPagesSample(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		var a, b []string
		for i := range 20 {
			a = append(a, srv.At(fmt.Sprintf("/a/%d", i)))
			b = append(b, srv.At(fmt.Sprintf("/b/%d", i)))
		}
		srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml")))
		srv.Doc("/a.xml", urlset(a...))
		srv.Doc("/b.xml", urlset(b...))
		var runs [][]string
		for range 2 {
			srv.ResetLog()
			lintInProcess(t, sitemap.New().SetHTTPClient(client), &sitemap.LintOptions{CheckPages: 6, NoRobots: true})
			var pages []string
			for _, p := range srv.Log() {
				if !strings.HasSuffix(p, ".xml") {
					pages = append(pages, p)
				}
			}
			slices.Sort(pages)
			pages = slices.Compact(pages)
			runs = append(runs, pages)
		}
		inA := 0
		for _, p := range runs[0] {
			if strings.HasPrefix(p, "/a/") {
				inA++
			}
		}
		if len(runs[0]) != 6 || inA != 3 {
			t.Errorf("pages checked %q; want 3 of each sitemap", runs[0])
		}
		if !slices.Equal(runs[0], runs[1]) {
			t.Errorf("the second run checked %q, the first %q", runs[1], runs[0])
		}
	})
}

// A page that cannot be checked is a note, never a problem of the page:
// a 503 left after the retries, and the pages past the budget. Without
// page checks, no page is requested.
func TestLintCheckPagesUnchecked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		srv.Doc("/sitemap.xml", urlset(srv.At("/busy"), srv.At("/p1"), srv.At("/p2"), srv.At("/p3")))
		srv.Handle("/busy", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		})
		for _, p := range []string{"/p1", "/p2", "/p3"} {
			srv.Handle(p, func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Content-Type", "text/plain") })
		}
		s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 1}})
		fs := lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 4, NoRobots: true})
		if lintCount(fs, sitemap.CodePageStatus) != 0 || lintCount(fs, sitemap.CodePageUnchecked) != 1 {
			t.Errorf("a 503 past the retries:%s", lintDump(fs))
		}
		if n := srv.Hits("/busy"); n != 2 {
			t.Errorf("/busy asked %d times; want 2 (one retry)", n)
		}
		// The budget of three requests a page: a chain of redirects past
		// it leaves the page unchecked.
		srv.Doc("/chain.xml", urlset(srv.At("/r1")))
		for i := 1; i <= 4; i++ {
			srv.Redirect(fmt.Sprintf("/r%d", i), srv.At(fmt.Sprintf("/r%d", i+1)))
		}
		fs = lintInProcess2(t, sitemap.New().SetHTTPClient(client), srv.At("/chain.xml"), &sitemap.LintOptions{CheckPages: 1, NoRobots: true})
		if len(fs) != 1 || fs[0].Code != sitemap.CodePageUnchecked || !strings.Contains(fs[0].Message, "budget") || srv.Hits("/r4") != 0 {
			t.Errorf("past the budget (/r4 asked %d times):%s", srv.Hits("/r4"), lintDump(fs))
		}
		srv.ResetLog()
		fs = lintInProcess2(t, sitemap.New().SetHTTPClient(client), srv.At("/sitemap.xml"), &sitemap.LintOptions{NoRobots: true})
		if len(fs) != 0 || srv.Total() != 1 {
			t.Errorf("page checks off: %d requests;%s", srv.Total(), lintDump(fs))
		}
	})
}

// lintInProcess2 lints loc with s.
func lintInProcess2(t *testing.T, s *sitemap.S, loc string, o *sitemap.LintOptions) []sitemap.Finding {
	t.Helper()
	var fs []sitemap.Finding
	for f := range s.Lint(context.Background(), loc, nil, o) {
		fs = append(fs, f)
	}
	return fs
}

// The page checks never leave the hosts of the tree: a page listed on
// another host is not asked, nor a redirect to one (with the guard on,
// an internal address among them), which is reported where it ends.
func TestLintCheckPagesHosts(t *testing.T) {
	other := newServer(t)
	srv := newServer(t)
	srv.Doc("/sitemap.xml", urlset(srv.At("/meta"), srv.At("/out"), other.At("/elsewhere")))
	srv.Redirect("/out", "http://169.254.169.254/latest/meta-data")
	srv.Redirect("/meta", other.At("/landing"))
	s := sitemap.New().SetBlockPrivate(true).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
	sitemap.SetGuardAllowForTest(s, func(a netip.AddrPort) bool { return a.Addr().IsLoopback() })
	fs := lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 10, NoRobots: true})
	if other.Total() != 0 {
		t.Errorf("the other host was asked: %q", other.Log())
	}
	var got []string
	for _, f := range fs {
		if f.Code == sitemap.CodePageRedirect {
			got = append(got, strings.TrimPrefix(f.URL, srv.URL)+" "+strings.ReplaceAll(f.Message, other.URL, "OTHER"))
		}
	}
	slices.Sort(got)
	want := []string{
		"/meta the page redirects (302 Found) to OTHER/landing, on a host outside the tree: not followed",
		"/out the page redirects (302 Found) to http://169.254.169.254/latest/meta-data, on a host outside the tree: not followed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("page-redirect:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A page the guard refuses to connect to is a page-unchecked note, not a
// problem of the page: here the guard lets the sitemap through, then
// refuses every address (as it would a host name that came to resolve to
// an internal one).
func TestLintCheckPagesGuard(t *testing.T) {
	srv := newServer(t)
	srv.Doc("/sitemap.xml", urlset(srv.At("/a"), srv.At("/b")))
	var dials atomic.Int64
	s := sitemap.New().SetBlockPrivate(true).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
	sitemap.SetGuardAllowForTest(s, func(netip.AddrPort) bool { return dials.Add(1) == 1 })
	fs := lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 10, NoRobots: true})
	if lintCount(fs, sitemap.CodePageUnchecked) != 2 || len(fs) != 2 || !strings.Contains(fs[0].Message, "guard refused") {
		t.Errorf("want two page-unchecked of the guard:%s", lintDump(fs))
	}
	if srv.Total() != 1 {
		t.Errorf("%d requests reached the site, want 1 (the sitemap)", srv.Total())
	}
}

// The pace of the page checks: the Crawl-delay of the host's robots.txt
// when it is slower than a second, the rate of the instance when one is
// set (-host-rate). The wait is not counted in the fetch timeout.
func TestLintCheckPagesPace(t *testing.T) {
	for _, c := range []struct {
		name   string
		robots string
		rate   float64
		gap    time.Duration
	}{
		{"default", "User-agent: *\nDisallow:\nSitemap: http://example.test/sitemap.xml\n", 0, time.Second},
		{"crawl-delay", "User-agent: *\nCrawl-delay: 5\nSitemap: http://example.test/sitemap.xml\n", 0, 5 * time.Second},
		{"rate", "User-agent: *\nDisallow:\nSitemap: http://example.test/sitemap.xml\n", 4, time.Second / 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, client := newInProcessServer(t)
				srv.Doc("/robots.txt", c.robots)
				srv.Doc("/sitemap.xml", urlset(srv.At("/a"), srv.At("/b"), srv.At("/c")))
				var mu sync.Mutex
				var times []time.Time
				for _, p := range []string{"/a", "/b", "/c"} {
					srv.Handle(p, func(w http.ResponseWriter, r *http.Request) {
						mu.Lock()
						times = append(times, time.Now())
						mu.Unlock()
						w.Header().Set("Content-Type", "image/png")
					})
				}
				// A fetch timeout shorter than the Crawl-delay: the wait
				// for the host is not the request's time.
				client.Timeout = 2 * time.Second
				s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: c.rate}})
				fs := lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 3})
				if len(times) != 3 || len(fs) != 0 {
					t.Fatalf("%d pages asked, want 3;%s", len(times), lintDump(fs))
				}
				for i := 1; i < len(times); i++ {
					if d := times[i].Sub(times[i-1]); d != c.gap {
						t.Errorf("request %d came %v after the one before, want %v", i, d, c.gap)
					}
				}
			})
		})
	}
}
