package sitemap_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gositemap/sitemap"
)

// Issue 35: the page checks against pages that try to break them. Each
// finding must be about the page as search engines see it, and a page
// that cannot be read is unchecked, never broken.

// pageCodes are the findings of fs as "code path: message".
func pageCodes(fs []sitemap.Finding, prefix string) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Code)+" "+strings.TrimPrefix(f.URL, prefix)+": "+f.Message)
	}
	slices.Sort(out)
	return out
}

// A redirect that spends the budget of the page before the GET of its
// head: the GET is refused, and the call goes on (it once panicked on
// the nil closer of the refused request).
func TestLintCheckPagesBudgetBeforeHead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		srv.Doc("/sitemap.xml", urlset(srv.At("/moved")))
		srv.Redirect("/moved", srv.At("/moved2"))
		srv.Redirect("/moved2", srv.At("/page"))
		srv.Doc("/page", `<html><head><meta name="robots" content="noindex"></head>`)
		fs := lintInProcess2(t, sitemap.New().SetHTTPClient(client), srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 1, NoRobots: true})
		got := pageCodes(fs, srv.URL)
		if len(got) != 2 || !strings.HasPrefix(got[0], "page-redirect /moved") || !strings.Contains(got[1], "page-unchecked /moved: the page could not be checked: the head of the page could not be read: the budget") {
			t.Errorf("findings:\n%s", strings.Join(got, "\n"))
		}
	})
}

// What a page's head holds, written to mislead: only the head up to its
// end counts (Google stops at the first element a head may not hold),
// canonical links that disagree are named as such, a relative one is
// resolved against <base>, and a page whose head cannot be read is
// unchecked.
func TestLintCheckPagesHead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		pages := map[string]string{
			"/late":    `<html><head><title>x</title></head><meta name="robots" content="noindex"><link rel="canonical" href="/other">`,
			"/text":    `<html><head><title>x</title>hello<meta name="robots" content="noindex">`,
			"/span":    `<html><head><span>x</span><meta name="robots" content="noindex">`,
			"/comment": `<html><head><!-- <meta name="robots" content="noindex"> --><script>'<meta name="robots" content="noindex">'</script>`,
			"/two":     `<html><head><link rel="canonical" href="/a"><link rel="canonical" href="/b">`,
			"/self2":   `<html><head><link rel="canonical" href="/self2"><link rel="canonical" href="http://EXAMPLE.test/self2">`,
			"/sub/p":   `<html><head><base href="/"><link rel="canonical" href="sub/p">`,
		}
		var locs []string
		for p, body := range pages {
			srv.Doc(p, body)
			locs = append(locs, srv.At(p))
		}
		// HEAD answers 200, the GET of the head breaks off.
		srv.Handle("/cut", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			fmt.Fprint(w, "<html><head><title>")
		})
		locs = append(locs, srv.At("/cut"))
		// Link headers that disagree, and one that names the page.
		srv.Handle("/links", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("Link", `</links>; rel="canonical"`)
			w.Header().Add("Link", `<http://example.test/elsewhere>; rel="canonical"`)
			w.Header().Set("Content-Type", "image/png")
		})
		srv.Handle("/selflink", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("Link", `</selflink>; rel="canonical", </selflink>; rel=canonical`)
			w.Header().Set("Content-Type", "image/png")
		})
		locs = append(locs, srv.At("/links"), srv.At("/selflink"))
		srv.Doc("/sitemap.xml", urlset(locs...))
		s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
		got := pageCodes(lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 20, NoRobots: true}), srv.URL)
		if len(got) != 3 || got[0] != `page-canonical-other /links: its Link headers name several canonical URLs, http://example.test/links and http://example.test/elsewhere: search engines may ignore them all` ||
			got[1] != `page-canonical-other /two: its <link rel="canonical"> elements name several canonical URLs, http://example.test/a and http://example.test/b: search engines may ignore them all` ||
			!strings.HasPrefix(got[2], "page-unchecked /cut: the page could not be checked: the head of the page could not be read") {
			t.Errorf("findings:\n%s", strings.Join(got, "\n"))
		}
	})
}

// A Last-Modified that is not before the Date of its answer (a page made
// for each request), or later than the time of the call without one, is
// no date of the page's content: no lastmod-stale. Nor is one on the day
// of a <lastmod> without a time, in the site's zone.
func TestLintCheckPagesLastModifiedNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		page := func(lastModified, date string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "image/png")
				w.Header().Set("Last-Modified", lastModified)
				if date != "" {
					w.Header().Set("Date", date)
				}
			}
		}
		srv.Handle("/now", page("Mon, 01 Jun 2025 10:00:00 GMT", "Mon, 01 Jun 2025 10:00:00 GMT"))
		srv.Handle("/future", page("Fri, 01 Jan 2100 00:00:00 GMT", ""))
		srv.Handle("/garbage", page("yesterday", ""))
		srv.Handle("/stale", page("Mon, 01 Jun 2025 09:00:00 GMT", "Mon, 01 Jun 2025 10:00:00 GMT"))
		// The evening of 2020-01-01 in California is 2020-01-02 in UTC:
		// the same day as the lastmod's, for the site.
		srv.Handle("/evening", page("Thu, 02 Jan 2020 04:00:00 GMT", "Mon, 01 Jun 2025 10:00:00 GMT"))
		srv.Handle("/nextday", page("Fri, 03 Jan 2020 04:00:00 GMT", "Mon, 01 Jun 2025 10:00:00 GMT"))
		var body strings.Builder
		for _, p := range []string{"/now", "/future", "/garbage", "/stale", "/evening", "/nextday"} {
			body.WriteString(u(srv.At(p), "<lastmod>2020-01-01</lastmod>"))
		}
		srv.Doc("/sitemap.xml", us(body.String()))
		s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
		got := pageCodes(lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 20, NoRobots: true, Now: lintNow}), srv.URL)
		if len(got) != 2 || !strings.HasPrefix(got[0], "lastmod-stale /nextday") || !strings.HasPrefix(got[1], "lastmod-stale /stale") {
			t.Errorf("findings:\n%s", strings.Join(got, "\n"))
		}
	})
}

// The fetch timeout of a call that streams (EachURL: the server's time
// alone counts) bounds the head of a page that stalls once it has begun:
// the page is unchecked, and the call ends (it read on without end).
func TestLintCheckPagesStall(t *testing.T) {
	srv := newServer(t)
	srv.Doc("/sitemap.xml", urlset(srv.At("/stall")))
	srv.Handle("/stall", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		fmt.Fprint(w, "<html><head><title>")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	s := sitemap.SetFetchTimeoutForTest(sitemap.New(), 50*time.Millisecond).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
	// A guard against the hang this test is about: it is never reached
	// when the fetch timeout holds.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var fs []sitemap.Finding
	for f := range s.Lint(ctx, srv.At("/sitemap.xml"), nil, &sitemap.LintOptions{CheckPages: 1, NoRobots: true, EachURL: func(sitemap.URL) {}}) {
		fs = append(fs, f)
	}
	if len(fs) != 1 || fs[0].Code != sitemap.CodePageUnchecked || !strings.HasSuffix(fs[0].Message, "the head of the page could not be read: the fetch timeout passed") {
		t.Errorf("findings:%s", lintDump(fs))
	}
}

// A page listed many times is one page of the sample: as many pages are
// checked as asked (the copies filled the sample, and fewer were).
func TestLintCheckPagesListedTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		var locs []string
		for range 4 {
			for i := range 8 {
				locs = append(locs, srv.At(fmt.Sprintf("/p%d", i)))
			}
		}
		srv.Doc("/sitemap.xml", urlset(locs...))
		s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
		lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 4, NoRobots: true})
		pages := map[string]bool{}
		for _, p := range srv.Log() {
			if p != "/sitemap.xml" {
				pages[p] = true
			}
		}
		if len(pages) != 4 {
			t.Errorf("pages asked: %v; want 4", pages)
		}
	})
}

// Redirects that go nowhere: a Location that is no URL (the client
// failed the request: the page was unchecked, with the whole Location in
// its message), a loop (found at its first turn, not after ten), and a
// long chain on the hosts of the tree (five redirects followed, not ten).
func TestLintCheckPagesRedirects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		location := func(loc string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", loc)
				w.WriteHeader(http.StatusMovedPermanently)
			}
		}
		srv.Handle("/bad", location("http://[::1"+strings.Repeat("x", 100000)))
		srv.Handle("/loop", location("/loop2"))
		srv.Handle("/loop2", location("/LOOP/../loop"))
		srv.Handle("/LOOP/../loop", location("/loop"))
		for i := range 12 {
			srv.Handle(fmt.Sprintf("/c%d", i), location(fmt.Sprintf("/c%d", i+1)))
		}
		srv.Doc("/sitemap.xml", urlset(srv.At("/bad"), srv.At("/loop"), srv.At("/c0")))
		s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
		fs := lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 20, NoRobots: true})
		got := pageCodes(fs, srv.URL)
		want := []string{
			`page-redirect /bad: the page redirects (301 Moved Permanently) to "http://[::1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
			`page-redirect /c0: the page redirects more than 5 times (last to http://example.test/c6)`,
			`page-redirect /loop: the page redirects in a loop (301 Moved Permanently, back to http://example.test/loop)`,
		}
		if len(got) != len(want) {
			t.Fatalf("findings:\n%s", strings.Join(got, "\n"))
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) || len(got[i]) > 3000 {
				t.Errorf("finding %.300s (%d bytes)\nwant %s...", got[i], len(got[i]), want[i])
			}
		}
		if n, m := srv.Hits("/loop"), srv.Hits("/c6"); n != 1 || m != 0 {
			t.Errorf("/loop asked %d times, /c6 %d", n, m)
		}
	})
}

// A redirect to a URL robots.txt disallows is not followed: it would be
// a request of the page checks as much as the page's own.
func TestLintCheckPagesRedirectDisallowed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		srv.Doc("/robots.txt", "User-agent: *\nDisallow: /private/\n")
		srv.Doc("/sitemap.xml", urlset(srv.At("/moved")))
		srv.Redirect("/moved", srv.At("/private/page"))
		s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
		got := pageCodes(lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 5}), srv.URL)
		if len(got) != 2 || got[1] != "page-redirect /moved: the page redirects (302 Found) to http://example.test/private/page, which robots.txt disallows: not followed" || srv.Hits("/private/page") != 0 {
			t.Errorf("findings (/private/page asked %d times):\n%s", srv.Hits("/private/page"), strings.Join(got, "\n"))
		}
	})
}

// A server that answers HEAD with an error and GET with the page: the
// page is not broken (it was a page-status error on the HEAD's word).
func TestLintCheckPagesHeadRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		srv.Handle("/page", func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodHead {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			fmt.Fprint(w, `<html><head><title>a page</title></head>`)
		})
		srv.Status("/gone", http.StatusGone)
		srv.Doc("/sitemap.xml", urlset(srv.At("/page"), srv.At("/gone")))
		s := sitemap.New().SetHTTPClient(client).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 1000}})
		got := pageCodes(lintInProcess2(t, s, srv.At("/sitemap.xml"), &sitemap.LintOptions{CheckPages: 5, NoRobots: true}), srv.URL)
		if len(got) != 1 || got[0] != "page-status /gone: the page answers 410 Gone" {
			t.Errorf("findings:\n%s", strings.Join(got, "\n"))
		}
	})
}

// A page that redirects to another host of the tree, one with no page
// of its own among those checked: the request there keeps to that host's
// Crawl-delay, after its last sitemap (it was sent at once).
func TestLintCheckPagesRedirectPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, client := newInProcessServer(t)
		srv.Handle("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
			if r.Host == "other.test" {
				fmt.Fprint(w, "User-agent: *\nCrawl-delay: 5\n")
			}
		})
		srv.Doc("/index.xml", index(srv.At("/a.xml"), "http://other.test/b.xml"))
		srv.Doc("/a.xml", urlset(srv.At("/r")))
		srv.Doc("/b.xml", urlset())
		srv.Redirect("/r", "http://other.test/q")
		var mu sync.Mutex
		var times []time.Time
		srv.Handle("/q", func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			times = append(times, time.Now())
			mu.Unlock()
			w.Header().Set("Content-Type", "image/png")
		})
		start := time.Now()
		s := sitemap.New().SetHTTPClient(client)
		fs := lintInProcess2(t, s, srv.At("/index.xml"), &sitemap.LintOptions{CheckPages: 5})
		if len(times) != 1 || times[0].Sub(start) < 5*time.Second {
			t.Errorf("/q asked at %v; want once, 5s after the tree was read%s\n%q", times, lintDump(fs), srv.HostLog())
		}
	})
}
