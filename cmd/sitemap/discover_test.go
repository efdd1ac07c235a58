package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// discoverSite serves a site whose robots.txt names one sitemap and whose
// /sitemap.xml holds another, with an HTML page at /sitemap; every other
// path is 404.
func discoverSite(t *testing.T) *httptest.Server {
	t.Helper()
	docs := map[string]string{
		"/":            `<html><head><link rel="alternate" type="application/rss+xml" href="/feed.rss"></head></html>`,
		"/robots.txt":  "Sitemap: {base}/news.xml\nSitemap: {base}/gone.xml\n",
		"/news.xml":    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{base}/news/1</loc></url></urlset>`,
		"/sitemap.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{base}/page/1</loc></url></urlset>`,
		"/feed.rss":    `<rss version="2.0"><channel><item><link>{base}/post/1</link></item></channel></rss>`,
		"/sitemap":     "<!DOCTYPE html><html><body>Site map</body></html>",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, strings.ReplaceAll(doc, "{base}", "http://"+r.Host))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// sitemap discover prints on standard output the sitemaps found, one a
// line with how each was found, and nothing else; the announced one that
// failed is among the errors; with -v every place tried goes to standard
// error; it exits 0 when a sitemap was found.
func TestDiscoverCommand(t *testing.T) {
	srv := discoverSite(t)
	res := runCLI(t, "", "discover", "-sequential", srv.URL+"/any/page")
	if res.code != exitOK {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	t.Logf("sitemap discover:\n%s%s", res.stdout, res.stderr)
	out := lines(strings.ReplaceAll(res.stdout, srv.URL, "https://example.com"))
	want := []string{
		"robots     https://example.com/news.xml",
		"feed       https://example.com/feed.rss",
		"well-known https://example.com/sitemap.xml",
	}
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Fatalf("stdout:\n%s\nwant:\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
	}
	errs := lines(res.stderr)
	if len(errs) != 2 || !strings.HasPrefix(errs[0], "NetworkError: ") || !strings.Contains(errs[0], "/gone.xml") {
		t.Fatalf("stderr:\n%s", res.stderr)
	}
	if want := "Summary: 23 places tried, 3 sitemaps found, "; !strings.HasPrefix(errs[1], want) {
		t.Fatalf("summary %q", errs[1])
	}

	// -v: the places tried, on standard error; standard output is the same.
	res = runCLI(t, "", "discover", "-v", "-sequential", srv.URL)
	if res.code != exitOK || len(lines(res.stdout)) != 3 {
		t.Fatalf("-v: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	stderr := strings.ReplaceAll(res.stderr, srv.URL, "https://example.com")
	for _, want := range []string{
		"parsed       home-page  https://example.com/\n",
		"parsed       robots     https://example.com/robots.txt\n",
		"parsed       robots     https://example.com/news.xml\n",
		"failed       robots     https://example.com/gone.xml\tunexpected HTTP status 404 Not Found\n",
		"parsed       feed       https://example.com/feed.rss\n",
		"parsed       well-known https://example.com/sitemap.xml\n",
		"not-sitemap  well-known https://example.com/sitemap\tnot a sitemap: an HTML page\n",
		"failed       well-known https://example.com/sitemap_index.xml\t",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no line %q in\n%s", want, stderr)
		}
	}

	// jsonl: every place, with its status.
	res = runCLI(t, "", "discover", "-format", "jsonl", "-well-known-fallback", srv.URL)
	if res.code != exitOK {
		t.Fatalf("jsonl: exit %d: %s", res.code, res.stderr)
	}
	var places []jsonPlace
	for _, line := range lines(res.stdout) {
		var p jsonPlace
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("jsonl %q: %v", line, err)
		}
		places = append(places, p)
	}
	// The home page, robots.txt, the two sitemaps it names and the feed:
	// with -well-known-fallback no well-known path is tried.
	if len(places) != 5 {
		t.Fatalf("with -well-known-fallback: %d places, want 5:\n%s", len(places), res.stdout)
	}
	if p := places[2]; p.Status != "parsed" || p.Found != "robots" || !p.Sitemap || p.Format != "urlset" {
		t.Fatalf("jsonl %+v", p)
	}
	if p := places[3]; p.Status != "failed" || p.HTTPStatus != 404 || p.Sitemap || p.Error == "" {
		t.Fatalf("jsonl %+v", p)
	}
}

// sitemap discover of a site with no sitemap exits 1; of no URL, 2.
func TestDiscoverCommandNothing(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	// Nothing on standard output: the places tried are not sitemaps.
	if res := runCLI(t, "", "discover", srv.URL); res.code != exitFailed || res.stdout != "" ||
		!strings.Contains(res.stderr, "20 places tried, 0 sitemaps found") || len(lines(res.stderr)) != 2 {
		t.Fatalf("exit %d:\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res := runCLI(t, "", "discover", "example.com"); res.code != exitUsage {
		t.Fatalf("no URL: exit %d: %s", res.code, res.stderr)
	}
	if res := runCLI(t, "", "discover", "-max-discovery-requests", "-1", srv.URL); res.code != exitUsage {
		t.Fatalf("a negative budget: exit %d: %s", res.code, res.stderr)
	}
	if res := runCLI(t, "", "discover", "-h"); res.code != exitOK || !strings.Contains(res.stdout, "-well-known-fallback") {
		t.Fatalf("-h: exit %d: %s", res.code, res.stdout)
	}
}

// sitemap SITE, a URL with no path, discovers first, says so, and prints
// the URLs of every sitemap found; a URL with a path is parsed as before.
func TestDiscoverCommandSite(t *testing.T) {
	srv := discoverSite(t)
	res := runCLI(t, "", "-sequential", srv.URL+"/")
	if res.code != exitOK {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	t.Logf("sitemap SITE:\n%s%s", res.stdout, res.stderr)
	if got, want := lines(res.stdout), []string{srv.URL + "/news/1", srv.URL + "/post/1", srv.URL + "/page/1"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("URLs %v, want %v", got, want)
	}
	for _, want := range []string{"Discovery: " + srv.URL + "/ has no path", "Discovery: found " + srv.URL + "/sitemap.xml (well-known)", "NetworkError: "} {
		if !strings.Contains(res.stderr, want) {
			t.Fatalf("no %q in stderr:\n%s", want, res.stderr)
		}
	}

	res = runCLI(t, "", "tree", "-sequential", srv.URL)
	t.Logf("sitemap tree SITE:\n%s", res.stdout)
	for _, want := range []string{"robots.txt", "news.xml", "feed.rss", "sitemap.xml", "gone.xml"} {
		if !strings.Contains(res.stdout, want) {
			t.Fatalf("no %s in the tree:\n%s", want, res.stdout)
		}
	}

	res = runCLI(t, "", srv.URL+"/news.xml")
	if res.code != exitOK || strings.Contains(res.stderr, "Discovery") || lines(res.stdout)[0] != srv.URL+"/news/1" {
		t.Fatalf("a URL with a path: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	empty := httptest.NewServer(http.NotFoundHandler())
	defer empty.Close()
	if res := runCLI(t, "", empty.URL); res.code != exitFailed || !strings.Contains(res.stderr, "no sitemap found") {
		t.Fatalf("nothing found: exit %d: %s", res.code, res.stderr)
	}
}
