package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Issue 35: sitemap lint -check-pages N, and the politeness flags of
// sitemap on sitemap lint. The pace of one request a second a host by
// default is tested in the library (TestLintCheckPages, in a synctest
// bubble); here -host-rate sets a fast one.

// pageSite serves an index of two sitemaps whose pages answer 200, 404,
// 301, 500, a noindex meta, an X-Robots-Tag, a canonical to another page,
// a Last-Modified later than the lastmod, and one robots.txt disallows.
// It logs the method and path of every request.
func pageSite(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var log []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		log = append(log, r.Method+" "+r.URL.Path)
		mu.Unlock()
		host := "http://" + r.Host
		urlset := func(paths ...string) {
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, p := range paths {
				loc, more, _ := strings.Cut(p, " ")
				fmt.Fprintf(w, "<url><loc>%s%s</loc>%s</url>", host, loc, more)
			}
			fmt.Fprint(w, `</urlset>`)
		}
		html := func(head string) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT")
			fmt.Fprint(w, "<!doctype html><html><head><title>t</title>"+head+"</head><body>b</body></html>")
		}
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nSitemap: "+host+"/index.xml\n")
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, host)
		case "/a.xml":
			urlset("/ok <lastmod>2024-01-10</lastmod>", "/missing", "/moved", "/broken", "/noindex")
		case "/b.xml":
			urlset("/xrobots", "/canonical", "/stale <lastmod>2024-01-10</lastmod>", "/private/page", "/fine")
		case "/ok", "/fine":
			html(`<link rel="canonical" href="` + host + r.URL.Path + `">`)
		case "/moved":
			http.Redirect(w, r, "/fine", http.StatusMovedPermanently)
		case "/broken":
			w.WriteHeader(http.StatusInternalServerError)
		case "/noindex":
			html(`<meta name="robots" content="noindex">`)
		case "/xrobots":
			w.Header().Set("X-Robots-Tag", "noindex, nofollow")
			html("")
		case "/canonical":
			html(`<link rel="canonical" href="/ok">`)
		case "/stale":
			w.Header().Set("Last-Modified", "Mon, 15 Jan 2024 10:00:00 GMT")
			w.Header().Set("Content-Type", "application/pdf")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(log)
	}
}

func TestLintCheckPagesFlag(t *testing.T) {
	srv, log := pageSite(t)
	r := runCLI(t, "", "lint", "-check-pages", "50", "-host-rate", "200", "-format", "jsonl", srv.URL+"/index.xml")
	if r.code != 1 {
		t.Errorf("exit %d, want 1 (errors found); stderr:\n%s", r.code, r.stderr)
	}
	var got []string
	for _, l := range lines(r.stdout) {
		var f struct{ Code, URL, Message string }
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		got = append(got, f.Code+" "+strings.TrimPrefix(f.URL, srv.URL))
	}
	slices.Sort(got)
	want := []string{
		"lastmod-stale /stale",
		"page-canonical-other /canonical",
		"page-noindex /noindex",
		"page-noindex /xrobots",
		"page-redirect /moved",
		"page-status /broken",
		"page-status /missing",
		"robots-disallowed /private/page",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s\nstdout:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), r.stdout)
	}
	heads := 0
	for _, l := range log() {
		if strings.HasSuffix(l, "/private/page") {
			t.Errorf("the disallowed page was requested: %s", l)
		}
		if strings.HasPrefix(l, "HEAD ") {
			heads++
		}
	}
	if heads != 10 { // nine pages, and /fine again at the end of /moved
		t.Errorf("%d HEAD requests, want 10: %q", heads, log())
	}
	if !strings.Contains(r.stderr, "page-status") {
		t.Errorf("the summary lacks the page codes:\n%s", r.stderr)
	}
}

// The politeness flags of sitemap reach the settings of sitemap lint, and
// a wrong one is a usage error; -max-host-concurrency is sitemap's too.
func TestLintPoliteFlags(t *testing.T) {
	c := &command{}
	var o lintOptions
	if _, err := parseArgs(c.lintFlags(&o, true), []string{"-retries", "2", "-host-rate", "0.5", "-max-host-concurrency", "3", "-block-private", "-check-pages", "7", "x"}); err != nil {
		t.Fatal(err)
	}
	if p := o.politeness(); p.Retry.Max != 2 || p.Host.Rate != 0.5 || p.Host.MaxConcurrency != 3 || !o.blockPrivate || o.checkPages != 7 {
		t.Errorf("politeness %+v, block-private %v, check-pages %d", p, o.blockPrivate, o.checkPages)
	}
	for _, args := range [][]string{{"-retries", "-1"}, {"-max-host-concurrency", "-2"}, {"-check-pages", "-1"}} {
		r := runCLI(t, "", append([]string{"lint"}, append(args, "x.xml")...)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, stderr %q; want 2", args, r.code, r.stderr)
		}
	}
	var mo options
	if _, err := parseArgs(c.flags(&mo), []string{"-max-host-concurrency", "4", "x"}); err != nil || mo.politeness().Host.MaxConcurrency != 4 {
		t.Errorf("sitemap -max-host-concurrency 4: %v, %+v", err, mo.politeness())
	}
	// -block-private: the loopback site is refused, no page is asked.
	srv, log := pageSite(t)
	r := runCLI(t, "", "lint", "-block-private", "-check-pages", "5", srv.URL+"/index.xml")
	if len(log()) != 0 || !strings.Contains(r.stdout, "fetch-failed") {
		t.Errorf("-block-private: requests %q, stdout %q", log(), r.stdout)
	}
}

// A file that cannot be opened is an error line, not a panic.
func TestLintMissingFile(t *testing.T) {
	r := runCLI(t, "", "lint", "/nonexistent/sitemap.xml")
	if r.code != 1 || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}
