package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gositemap/sitemap"
)

// Tests of discovery (issue 17): S.Discover, S.DiscoverStream and the
// places they try, each a document of GetDocuments. Every site is an httptest server on loopback that
// counts the requests it answers, by path.

// newDSite returns a loopback site that answers each path of routes with
// its body (see dBody), any other with the server's fallback (404 when it
// is nil).
func newDSite(t *testing.T, routes map[string]string) *server {
	t.Helper()
	s := newServer(t)
	for path, body := range routes {
		s.Handle(path, dBody(body))
	}
	return s
}

// dBody answers with body, in which {base} stands for the site's URL.
func dBody(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, strings.ReplaceAll(body, "{base}", "http://"+r.Host))
	}
}

// dDiscover runs Discover on the site under the guard, with the options
// given (nil when there are none).
func dDiscover(t *testing.T, s *sitemap.S, site string, o ...*sitemap.DiscoverOptions) error {
	t.Helper()
	var err error
	var opt *sitemap.DiscoverOptions
	if len(o) > 0 {
		opt = o[0]
	}
	guard(t, guardTimeout, func() { _, err = s.Discover(context.Background(), site, opt) })
	return err
}

// fallback is the options of a discovery that tries the well-known paths
// only when nothing announced is a sitemap.
var fallback = &sitemap.DiscoverOptions{WellKnownFallback: true}

// dFound returns the places that were found to be sitemaps, as "found
// path": the documents a discovery came to on its own (not through an
// index), read as sitemaps.
func dFound(s *sitemap.S, base string) []string {
	var out []string
	for _, d := range s.GetDocuments() {
		if isFoundSitemap(d) {
			out = append(out, string(d.Found)+" "+strings.TrimPrefix(d.URL, base))
		}
	}
	return out
}

// isFoundSitemap tells a sitemap a discovery found: a document it came to
// on its own, read as a sitemap.
func isFoundSitemap(d sitemap.Document) bool {
	switch d.Found {
	case sitemap.FoundRobots, sitemap.FoundHomePage, sitemap.FoundFeed, sitemap.FoundWellKnown:
	default:
		return false
	}
	return (d.Status == sitemap.StatusParsed || d.Status == sitemap.StatusPartial) &&
		d.Format != sitemap.FormatRobots && d.Format != sitemap.FormatHTML
}

// dPlace returns the document at url, which is there once.
func dPlace(t *testing.T, s *sitemap.S, url string) sitemap.Document {
	t.Helper()
	var found []sitemap.Document
	for _, d := range s.GetDocuments() {
		if d.URL == url {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d documents %s among %v", len(found), url, s.GetDocuments())
	}
	return found[0]
}

// dLog prints what a discovery found, how, and the requests it took.
func dLog(t *testing.T, name string, s *sitemap.S, site *server) {
	t.Helper()
	t.Logf("%s: %d requests; found %v; %d sitemaps listed, %d URLs, %d errors",
		name, site.Total(), dFound(s, site.URL), s.GetSitemapCount(), s.GetURLCount(), s.GetErrorsCount())
}

// dNoErrors fails when the call recorded an error.
func dNoErrors(t *testing.T, s *sitemap.S) {
	t.Helper()
	if errs := s.GetErrors(); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
}

// dOnce fails when a path was requested more than once.
func dOnce(t *testing.T, site *server) {
	t.Helper()
	if n, path := site.MaxHits(); n > 1 {
		t.Fatalf("%s requested %d times", path, n)
	}
}

const dHomeHTML = `<!DOCTYPE html><html><head><title>Home</title></head><body><p>Welcome</p></body></html>`

// Issue 17, show: a site with only a well-known index. The index is found
// at /sitemap_index.xml; the urlset it lists is read through it, once, and
// the well-known path /sitemap.xml that the index lists is not requested
// on its own when the index came first.
func TestDiscoverWellKnownIndexOnly(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/":                  dHomeHTML,
		"/sitemap_index.xml": index("{base}/sitemap-posts.xml", "{base}/sitemap-news.xml"),
		"/sitemap-posts.xml": urlset("{base}/post/1", "{base}/post/2"),
		"/sitemap-news.xml":  urlset("{base}/news/1"),
	})
	s := newParser()
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	dLog(t, "well-known index only", s, site)
	dNoErrors(t, s)
	dOnce(t, site)
	if got, want := dFound(s, site.URL), []string{"well-known /sitemap_index.xml"}; !slices.Equal(got, want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	if s.GetURLCount() != 3 || s.GetSitemapCount() != 3 {
		t.Fatalf("%d URLs, %d sitemaps; want 3 and 3: %v", s.GetURLCount(), s.GetSitemapCount(), s.GetSitemaps())
	}
	// The home page, robots.txt, 18 well-known paths, 2 sitemaps of the
	// index, less /sitemap-news.xml, which the index listed.
	if got := site.Total(); got != 2+18+2-1 {
		t.Fatalf("%d requests, want 21", got)
	}
	// The well-known path the index listed is the index's document, not
	// tried again.
	if d := dPlace(t, s, site.URL+"/sitemap-news.xml"); d.Found != sitemap.FoundIndex || d.Status != sitemap.StatusParsed {
		t.Fatalf("/sitemap-news.xml: %+v, want read through the index", d)
	}
}

// Issue 17, show: a site whose only sitemap is named by a <link
// rel="sitemap"> of its home page, which also announces an RSS feed and an
// Atom feed. With WellKnownFallback the well-known paths are not
// tried: nothing else is requested.
func TestDiscoverHomePageLinkOnly(t *testing.T) {
	home := `<!doctype html><html><head>
<link rel="stylesheet" href="/style.css">
<link rel="sitemap" type="application/xml" title="Sitemap" href="/maps/site.xml">
<link rel="alternate" type="application/rss+xml" href="/feed.rss">
<link rel="alternate" type="application/atom+xml; charset=utf-8" href="/feed.atom">
<link rel="alternate" hreflang="fr" href="/fr/">
</head><body><link rel="sitemap" href="/after-head.xml"></body></html>`
	site := newDSite(t, map[string]string{
		"/":              home,
		"/maps/site.xml": urlset("{base}/a", "{base}/b"),
		"/feed.rss":      `<rss version="2.0"><channel><item><link>{base}/c</link></item></channel></rss>`,
		"/feed.atom":     `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="{base}/d"/></entry></feed>`,
	})
	s := newParser().SetMultiThread(false)
	if err := dDiscover(t, s, site.URL+"/some/page?x=1", fallback); err != nil {
		t.Fatal(err)
	}
	dLog(t, "home-page link only", s, site)
	dNoErrors(t, s)
	dOnce(t, site)
	want := []string{"home-page /maps/site.xml", "feed /feed.rss", "feed /feed.atom"}
	if got := dFound(s, site.URL); !slices.Equal(got, want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{site.URL + "/a", site.URL + "/b", site.URL + "/c", site.URL + "/d"}) {
		t.Fatalf("URLs %v", got)
	}
	if got := site.Total(); got != 5 {
		t.Fatalf("%d requests (%v), want 5: the home page, robots.txt and 3 announced", got, site.Log())
	}
}

// Issue 17, show: a robots.txt that lists one sitemap while a well-known
// path holds another. By default both are found; with the fallback setting
// only the one robots.txt lists, and no well-known path is requested.
func TestDiscoverRobotsAndWellKnown(t *testing.T) {
	routes := map[string]string{
		"/":            dHomeHTML,
		"/robots.txt":  "User-agent: *\nDisallow:\nSitemap: {base}/news.xml\n",
		"/news.xml":    urlset("{base}/news/1"),
		"/sitemap.xml": urlset("{base}/page/1", "{base}/page/2"),
	}
	for _, fallback := range []bool{false, true} {
		t.Run(fmt.Sprintf("fallback=%v", fallback), func(t *testing.T) {
			site := newDSite(t, routes)
			s := newParser()
			if err := dDiscover(t, s, site.URL, &sitemap.DiscoverOptions{WellKnownFallback: fallback}); err != nil {
				t.Fatal(err)
			}
			dLog(t, fmt.Sprintf("robots + well-known, fallback=%v", fallback), s, site)
			dNoErrors(t, s)
			dOnce(t, site)
			want, urls, requests := []string{"robots /news.xml", "well-known /sitemap.xml"}, 3, 2+1+18
			if fallback {
				want, urls, requests = want[:1], 1, 3
			}
			if got := dFound(s, site.URL); !slices.Equal(got, want) {
				t.Fatalf("found %v, want %v", got, want)
			}
			if s.GetURLCount() != int64(urls) || s.GetSitemapCount() != int64(len(want)) {
				t.Fatalf("%d URLs and %d sitemaps", s.GetURLCount(), s.GetSitemapCount())
			}
			if got := site.Total(); got != requests {
				t.Fatalf("%d requests, want %d", got, requests)
			}
		})
	}
}

// The fallback setting tries the well-known paths when what robots.txt
// announces is no sitemap: the announced one that fails is reported, the
// guessed ones that fail are not.
func TestDiscoverFallbackWhenAnnouncedFails(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/robots.txt":  "Sitemap: /gone.xml\n",
		"/sitemap.xml": urlset("{base}/page/1"),
	})
	s := newParser()
	if err := dDiscover(t, s, site.URL, fallback); err != nil {
		t.Fatal(err)
	}
	if got := dFound(s, site.URL); !slices.Equal(got, []string{"well-known /sitemap.xml"}) {
		t.Fatalf("found %v", got)
	}
	errs := s.GetErrors()
	var nerr *sitemap.NetworkError
	if len(errs) != 1 || !errors.As(errs[0], &nerr) || nerr.URL != site.URL+"/gone.xml" {
		t.Fatalf("errors %v, want the one of /gone.xml", errs)
	}
	if d := dPlace(t, s, site.URL+"/gone.xml"); d.Status != sitemap.StatusFailed || d.Found != sitemap.FoundRobots || d.Err == nil || d.Errors != 1 {
		t.Fatalf("/gone.xml: %+v", d)
	}
	if d := dPlace(t, s, site.URL+"/sitemap_index.xml"); d.Status != sitemap.StatusFailed || d.Found != sitemap.FoundWellKnown || d.HTTPStatus != 404 || d.Errors != 0 {
		t.Fatalf("/sitemap_index.xml: %+v", d)
	}
}

// Issue 17, show and bad input: a site that answers 200 with the same HTML
// page to every path, robots.txt included. Nothing is found, nothing is
// reported, and each path is requested once.
func TestDiscoverCatchAllHTML(t *testing.T) {
	site := newDSite(t, nil)
	site.fallback = dBody("<!DOCTYPE html>\n<html><head><title>Not here</title></head><body>\nSitemap: /x.xml\nhttps://example.com/page\n</body></html>")
	s := newParser()
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	dLog(t, "200 HTML to every path", s, site)
	dNoErrors(t, s)
	dOnce(t, site)
	if got := dFound(s, site.URL); len(got) != 0 || s.GetSitemapCount() != 0 || s.GetURLCount() != 0 {
		t.Fatalf("found %v, %d sitemaps, %d URLs", got, s.GetSitemapCount(), s.GetURLCount())
	}
	if got := site.Total(); got != 2+18 {
		t.Fatalf("%d requests, want 20", got)
	}
	wellKnown := 0
	for _, d := range s.GetDocuments() {
		if d.Found != sitemap.FoundWellKnown {
			continue
		}
		wellKnown++
		if d.Status != sitemap.StatusNotSitemap || d.Err == nil || d.Errors != 0 {
			t.Fatalf("%+v, want not-sitemap", d)
		}
	}
	if wellKnown != 18 {
		t.Fatalf("%d well-known paths among the documents, want 18", wellKnown)
	}
	if d := dPlace(t, s, site.URL+"/robots.txt"); d.Status != sitemap.StatusNotSitemap {
		t.Fatalf("robots.txt: %+v", d)
	}
	if d := dPlace(t, s, site.URL+"/"); d.Status != sitemap.StatusParsed || d.Format != sitemap.FormatHTML {
		t.Fatalf("home page: %+v", d)
	}
}

// Bad input: a catch-all server that answers every path with the same
// sitemap gives one sitemap, read once; gzipped as well.
func TestDiscoverCatchAllSitemap(t *testing.T) {
	t.Run("plain", func(t *testing.T) { dCatchAll(t, false) })
	t.Run("gzip", func(t *testing.T) { dCatchAll(t, true) })
}

func dCatchAll(t *testing.T, gzipped bool) {
	site := newDSite(t, nil)
	site.fallback = dBody(urlset("{base}/only"))
	if gzipped {
		site.fallback = func(w http.ResponseWriter, r *http.Request) {
			var b bytes.Buffer
			z := gzip.NewWriter(&b)
			z.Write([]byte(urlset("http://" + r.Host + "/only")))
			z.Close()
			w.Write(b.Bytes())
		}
	}
	s := newParser()
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	dLog(t, "the same sitemap to every path", s, site)
	dNoErrors(t, s)
	dOnce(t, site)
	if got := dFound(s, site.URL); !slices.Equal(got, []string{"well-known /sitemap.xml"}) {
		t.Fatalf("found %v", got)
	}
	if s.GetURLCount() != 1 || s.GetSitemapCount() != 1 {
		t.Fatalf("%d URLs, %d sitemaps", s.GetURLCount(), s.GetSitemapCount())
	}
	if d := dPlace(t, s, site.URL+"/sitemap_index.xml"); d.Status != sitemap.StatusDuplicate || d.Err == nil || !strings.Contains(d.Err.Error(), "the same content as") {
		t.Fatalf("/sitemap_index.xml: %+v", d)
	}
}

// Bad input: every well-known path redirects to the home page. None is a
// sitemap, none is reported, and each path is requested once: the home
// page, requested already, is not requested again behind each redirect.
// With a client of the caller's, which is used as it is, the redirects are
// followed and the documents they lead to are not read.
func TestDiscoverWellKnownRedirectToHome(t *testing.T) {
	site := newDSite(t, map[string]string{"/": dHomeHTML})
	site.fallback = func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusFound) }
	s := newParser()
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	dLog(t, "every well-known path redirects home", s, site)
	dNoErrors(t, s)
	if got := dFound(s, site.URL); len(got) != 0 || s.GetSitemapCount() != 0 {
		t.Fatalf("found %v", got)
	}
	dOnce(t, site)
	if got := site.Total(); got != 2+18 {
		t.Fatalf("%d requests, want 20", got)
	}
	if d := dPlace(t, s, site.URL+"/sitemap.xml"); d.Status != sitemap.StatusDuplicate {
		t.Fatalf("/sitemap.xml: %+v", d)
	}

	site2 := newDSite(t, map[string]string{"/": dHomeHTML})
	site2.fallback = site.fallback
	s = sitemap.New().SetHTTPClient(&http.Client{})
	if err := dDiscover(t, s, site2.URL); err != nil {
		t.Fatal(err)
	}
	dLog(t, "every well-known path redirects home, the caller's client", s, site2)
	dNoErrors(t, s)
	if got := site2.Total(); got != 1+2*19 {
		t.Fatalf("%d requests, want 39", got)
	}
	if d := dPlace(t, s, site2.URL+"/sitemap.xml"); d.Status != sitemap.StatusDuplicate {
		t.Fatalf("/sitemap.xml: %+v", d)
	}
}

// Bad input: a home page of 50 MB is read no further than the cap; the
// link past it is not seen, and memory stays small.
func TestDiscoverHugeHomePage(t *testing.T) {
	const size = 50 << 20
	site := newDSite(t, map[string]string{"/late.xml": urlset("{base}/late")})
	var sent atomic.Int64 // what the server could write of the page
	site.handlers["/"] = func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html><head><title>"))
		chunk := []byte(strings.Repeat("a", 64<<10))
		for n := 0; n < size; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client has had enough
			}
			sent.Add(int64(len(chunk)))
		}
		w.Write([]byte(`</title><link rel="sitemap" href="/late.xml"></head></html>`))
	}
	s := newParser()
	var err error
	heap := peakHeap(func() { err = dDiscover(t, s, site.URL) })
	if err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
	if site.Hits("/late.xml") != 0 {
		t.Fatal("the link after 50 MB was followed")
	}
	if heap > 24<<20 {
		t.Fatalf("peak heap %d MiB", heap>>20)
	}
	// The cap of 1 MiB, and what the sockets of loopback hold besides.
	site.Close() // the handler has ended
	if n := sent.Load(); n > 24<<20 {
		t.Fatalf("the server could write %d MiB of the page: it was read", n>>20)
	}
	t.Logf("50 MB home page: peak heap %.1f MiB, %.1f MiB written by the server, %d requests",
		float64(heap)/(1<<20), float64(sent.Load())/(1<<20), site.Total())
}

// Bad input: a home page with 100,000 <link> elements gives no more than
// the first 20 of the sitemaps it announces; those that are not there are
// reported, as the site announced them.
func TestDiscoverManyLinks(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head>")
	for i := range 100000 {
		fmt.Fprintf(&b, `<link rel="sitemap" href="/s%d.xml">`, i)
	}
	b.WriteString("</head></html>")
	site := newDSite(t, map[string]string{"/": b.String(), "/s0.xml": urlset("{base}/zero")})
	s := newParser()
	var err error
	heap := peakHeap(func() { err = dDiscover(t, s, site.URL) })
	if err != nil {
		t.Fatal(err)
	}
	dOnce(t, site)
	if got := site.Total(); got > 2+20+18 {
		t.Fatalf("%d requests", got)
	}
	if s.GetURLCount() != 1 || s.GetErrorsCount() != 19 {
		t.Fatalf("%d URLs, %d errors", s.GetURLCount(), s.GetErrorsCount())
	}
	if heap > 24<<20 {
		t.Fatalf("peak heap %d MiB", heap>>20)
	}
	t.Logf("100,000 <link>: %d requests, peak heap %.1f MiB", site.Total(), float64(heap)/(1<<20))
}

// Bad input: a robots.txt that is an HTML page names nothing, is no error,
// and the well-known paths are still tried.
func TestDiscoverRobotsIsHTML(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/robots.txt":  "<html><body>\nSitemap: /trap.xml\n</body></html>",
		"/trap.xml":    urlset("{base}/trap"),
		"/sitemap.xml": urlset("{base}/page"),
	})
	s := newParser()
	if err := dDiscover(t, s, site.URL, fallback); err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
	if site.Hits("/trap.xml") != 0 {
		t.Fatal("a Sitemap: line of an HTML robots.txt was followed")
	}
	if got := dFound(s, site.URL); !slices.Equal(got, []string{"well-known /sitemap.xml"}) {
		t.Fatalf("found %v", got)
	}
}

// A <base href> of the home page is what its links are resolved against.
func TestDiscoverBaseHref(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/":                 `<html><head><base href="/blog/"><base href="/other/"><link rel="sitemap" href="maps.xml"></head></html>`,
		"/blog/maps.xml":    urlset("{base}/blog/1"),
		"/other/maps.xml":   urlset("{base}/other/1"),
		"/robots.txt":       "",
		"/sitemap.xml.gz":   "",
		"/not-used-at-all/": "",
	})
	s := newParser()
	if err := dDiscover(t, s, site.URL, fallback); err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
	if got := dFound(s, site.URL); !slices.Equal(got, []string{"home-page /blog/maps.xml"}) {
		t.Fatalf("found %v", got)
	}
}

// A sitemap the site announces on another host is followed, in strict mode
// as well (as one a robots.txt names), unless the follow rules leave it
// out: then it is listed and not fetched.
func TestDiscoverOtherHost(t *testing.T) {
	other := newDSite(t, map[string]string{"/cdn.xml": urlset("{base}/on-cdn")})
	site := newDSite(t, map[string]string{
		"/":           `<html><head><link rel="sitemap" href="` + other.URL + `/cdn.xml"></head></html>`,
		"/robots.txt": "Sitemap: " + other.URL + "/cdn.xml\n",
	})
	for _, strict := range []bool{false, true} {
		s := newParser().SetStrict(strict)
		if err := dDiscover(t, s, site.URL, fallback); err != nil {
			t.Fatal(err)
		}
		dNoErrors(t, s)
		if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{other.URL + "/on-cdn"}) {
			t.Fatalf("strict=%v: URLs %v", strict, got)
		}
		if d := dPlace(t, s, other.URL+"/cdn.xml"); d.Found != sitemap.FoundRobots || d.Status != sitemap.StatusParsed {
			t.Fatalf("strict=%v: %+v", strict, d)
		}
	}
	s := newParser().SetFollow([]string{"^" + site.URL})
	if err := dDiscover(t, s, site.URL, fallback); err != nil {
		t.Fatal(err)
	}
	if s.GetSitemapCount() != 1 || s.GetURLCount() != 0 {
		t.Fatalf("follow rules: %d sitemaps, %d URLs", s.GetSitemapCount(), s.GetURLCount())
	}
	if d := dPlace(t, s, other.URL+"/cdn.xml"); d.Status != sitemap.StatusNotFollowed {
		t.Fatalf("follow rules: %+v", d)
	}
	if other.Hits("/cdn.xml") != 2 {
		t.Fatalf("/cdn.xml requested %d times over three calls, want 2", other.Hits("/cdn.xml"))
	}
}

// The sitemaps found count against SetMaxSitemaps, and the error of the
// limit names the site; the well-known paths that are no sitemap do not
// count.
func TestDiscoverMaxSitemapsNamesSite(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/robots.txt": "Sitemap: /a.xml\nSitemap: /b.xml\n",
		"/a.xml":      urlset("{base}/a"),
		"/b.xml":      urlset("{base}/b"),
	})
	s := newParser().SetMaxSitemaps(1).SetMultiThread(false)
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	errs := s.GetErrors()
	var perr *sitemap.ParseError
	if len(errs) != 1 || !errors.As(errs[0], &perr) || !errors.Is(perr, sitemap.ErrMaxSitemaps) || perr.URL != site.URL {
		t.Fatalf("errors %v, want the sitemap limit naming %s", errs, site.URL)
	}
	if s.GetURLCount() != 1 {
		t.Fatalf("%d URLs", s.GetURLCount())
	}

	// One sitemap announced, 18 well-known paths that are not there: the
	// limit of 1 is not reached.
	site2 := newDSite(t, map[string]string{"/robots.txt": "Sitemap: /a.xml\n", "/a.xml": urlset("{base}/a")})
	s = newParser().SetMaxSitemaps(1)
	if err := dDiscover(t, s, site2.URL); err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
}

// The sitemaps found are at depth 0: with SetMaxDepth(1) an index found
// has its sitemaps read, and theirs are not.
func TestDiscoverDepth(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/sitemap.xml": index("{base}/level1.xml"),
		"/level1.xml":  index("{base}/level2.xml"),
		"/level2.xml":  urlset("{base}/deep"),
	})
	s := newParser().SetMaxDepth(1)
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	errs := s.GetErrors()
	if len(errs) != 1 || !errors.Is(errs[0], sitemap.ErrMaxDepth) {
		t.Fatalf("errors %v", errs)
	}
	if site.Hits("/level1.xml") != 1 || site.Hits("/level2.xml") != 0 {
		t.Fatalf("hits of level1 %d, level2 %d", site.Hits("/level1.xml"), site.Hits("/level2.xml"))
	}
}

// The discovery's requests have a budget of their own: with 3, the home
// page, robots.txt and one well-known path are requested, and the rest are
// skipped.
func TestDiscoverBudget(t *testing.T) {
	site := newDSite(t, map[string]string{"/sitemap_index.xml": urlset("{base}/a")})
	s := newParser()
	if err := dDiscover(t, s, site.URL, &sitemap.DiscoverOptions{MaxRequests: 3}); err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
	if got := site.Total(); got != 3 {
		t.Fatalf("%d requests, want 3", got)
	}
	d := dPlace(t, s, site.URL+"/sitemap_index.xml")
	if d.Status != sitemap.StatusLimited || d.Err == nil || !strings.Contains(d.Err.Error(), "budget of 3") {
		t.Fatalf("%+v", d)
	}
	// A negative budget is refused before anything is requested, by the
	// discovery and its streaming form.
	err := dDiscover(t, s, site.URL, &sitemap.DiscoverOptions{MaxRequests: -1})
	var cerr *sitemap.ConfigError
	if !errors.As(err, &cerr) || cerr.Field != "discover.maxRequests" || site.Total() != 3 {
		t.Fatalf("a negative budget: %v, %d requests", err, site.Total())
	}
	for _, err := range s.DiscoverStream(context.Background(), site.URL, &sitemap.DiscoverOptions{MaxRequests: -1}) {
		if !errors.As(err, &cerr) || site.Total() != 3 {
			t.Fatalf("a negative budget, streaming: %v, %d requests", err, site.Total())
		}
	}
}

// Discover with Selection.RootOnly finds without reading further: each place is
// read to tell whether it is a sitemap, and nothing the sitemaps found
// list is requested; it is listed, not followed.
func TestDiscoverRootOnlyFindsOnly(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/robots.txt":  "Sitemap: /index.xml\n",
		"/index.xml":   index("{base}/child.xml"),
		"/child.xml":   urlset("{base}/a"),
		"/sitemap.txt": "{base}/b\n{base}/c\n",
	})
	s := newParser().SetSelection(sitemap.Selection{RootOnly: true})
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
	if site.Hits("/child.xml") != 0 {
		t.Fatalf("read on: child requested %d times", site.Hits("/child.xml"))
	}
	if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{site.URL + "/b", site.URL + "/c"}) {
		t.Fatalf("URLs %v, want those of the sitemaps found", got)
	}
	if got := dFound(s, site.URL); !slices.Equal(got, []string{"robots /index.xml", "well-known /sitemap.txt"}) {
		t.Fatalf("found %v", got)
	}
	docs := s.GetDocuments()
	// The site, its home page, robots.txt, the index, the sitemap it
	// lists and the 18 well-known paths.
	if len(docs) != 3+2+18 || s.GetSitemapCount() != 3 {
		t.Fatalf("%d documents, %d sitemaps", len(docs), s.GetSitemapCount())
	}
	if docs[1].Found != sitemap.FoundHomePage || docs[2].Found != sitemap.FoundRobots || docs[2].Status != sitemap.StatusParsed {
		t.Fatalf("first places %+v", docs[1:3])
	}
	if d := dPlace(t, s, site.URL+"/child.xml"); d.Status != sitemap.StatusNotFollowed || d.Found != sitemap.FoundIndex {
		t.Fatalf("/child.xml: %+v", d)
	}
}

// A site given as no HTTP(S) URL with a host is a *ValidationError, and
// nothing is requested.
func TestDiscoverBadSite(t *testing.T) {
	for _, site := range []string{"", "ftp://example.com", "https://", "not a url", "http://[::1"} {
		_, err := sitemap.New().Discover(context.Background(), site, nil)
		var verr *sitemap.ValidationError
		if !errors.As(err, &verr) {
			t.Fatalf("%q: %v", site, err)
		}
	}
}

// A redirect of the origin (here the bare host to its www. form) is
// followed once, on the home page: robots.txt and the well-known paths are
// requested on the origin it ends on, without a redirect each.
func TestDiscoverOriginRedirect(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/robots.txt": "Sitemap: {base}/pages.xml\n",
		"/pages.xml":  urlset("http://www.example.com/page"),
	})
	site.handlers["/"] = func(w http.ResponseWriter, r *http.Request) {
		if r.Host == "example.com" {
			http.Redirect(w, r, "http://www.example.com/", http.StatusMovedPermanently)
			return
		}
		fmt.Fprint(w, dHomeHTML)
	}
	var mu sync.Mutex
	var hosts []string
	addr := site.Listener.Addr().String()
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}}
	client.Transport = dHostLog{client.Transport, &mu, &hosts}
	s := sitemap.New().SetHTTPClient(client).SetStrict(true)
	if err := dDiscover(t, s, "http://example.com/about"); err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
	if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{"http://www.example.com/page"}) {
		t.Fatalf("URLs %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if hosts[0] != "example.com/" || slices.Contains(hosts[1:], "example.com/robots.txt") || !slices.Contains(hosts, "www.example.com/robots.txt") {
		t.Fatalf("requests %v", hosts)
	}
	// The home page and its redirect, robots.txt, the sitemap it names and
	// the 18 well-known paths.
	if len(hosts) != 2+2+18 {
		t.Fatalf("%d requests: %v", len(hosts), hosts)
	}
}

// dHostLog logs the host and path of every request.
type dHostLog struct {
	rt    http.RoundTripper
	mu    *sync.Mutex
	hosts *[]string
}

func (l dHostLog) RoundTrip(r *http.Request) (*http.Response, error) {
	l.mu.Lock()
	*l.hosts = append(*l.hosts, r.URL.Host+r.URL.Path)
	l.mu.Unlock()
	return l.rt.RoundTrip(r)
}

// A context that ends cuts the discovery short: the error names the site.
func TestDiscoverContextEnds(t *testing.T) {
	site := newDSite(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	site.fallback = func(w http.ResponseWriter, r *http.Request) {
		cancel()
		http.NotFound(w, r)
	}
	s := newParser()
	var err error
	guard(t, guardTimeout, func() { _, err = s.Discover(ctx, site.URL, nil) })
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) || perr.URL != site.URL || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v", err)
	}
	if got := site.Total(); got > 2 {
		t.Fatalf("%d requests after the context ended", got)
	}
}

// The tree of a discovery: the site is the root; its home page and its
// robots.txt are its children, and the sitemaps each announces theirs;
// each well-known path tried is a child of the site, and what an index
// lists is found through the index. Every place says how it was found, in
// Found, and what came of it, in Status.
func TestDiscoverTree(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/":                  `<html><head><link rel="sitemap" href="/linked.xml"><link rel="alternate" type="application/atom+xml" href="/feed.atom"></head></html>`,
		"/robots.txt":        "Sitemap: {base}/named.xml\nSitemap: {base}/gone.xml\n",
		"/named.xml":         urlset("{base}/1"),
		"/linked.xml":        urlset("{base}/2"),
		"/feed.atom":         `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="{base}/3"/></entry></feed>`,
		"/sitemap_index.xml": index("{base}/child.xml"),
		"/child.xml":         urlset("{base}/4"),
		"/sitemap":           dHomeHTML,
	})
	s := newParser().SetMultiThread(false)
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range s.GetDocuments() {
		parent := "-"
		if d.Parent >= 0 {
			parent = strings.TrimPrefix(s.GetDocuments()[d.Parent].URL, site.URL)
		}
		line := fmt.Sprintf("%d %s %s %s %s (parent %s)", d.Depth, d.Found, d.Status, d.Format, strings.TrimPrefix(d.URL, site.URL), parent)
		got = append(got, line)
		t.Log(line)
	}
	want := []string{
		"0 root parsed   (parent -)",
		"1 home-page parsed html / (parent )",
		"1 robots parsed robots /robots.txt (parent )",
		"2 robots parsed urlset /named.xml (parent /robots.txt)",
		"2 robots failed  /gone.xml (parent /robots.txt)",
		"2 home-page parsed urlset /linked.xml (parent /)",
		"2 feed parsed atom /feed.atom (parent /)",
		"1 well-known failed  /sitemap.xml (parent )",
		"1 well-known parsed index /sitemap_index.xml (parent )",
		"2 index parsed urlset /child.xml (parent /sitemap_index.xml)",
	}
	// Every other well-known path is a place tried: not there, or, for
	// /sitemap, an HTML page.
	for _, path := range []string{"/sitemap-index.xml", "/sitemap.xml.gz", "/sitemap_index.xml.gz",
		"/sitemap-index.xml.gz", "/wp-sitemap.xml", "/sitemap.txt", "/sitemaps.xml", "/sitemap/sitemap.xml",
		"/sitemap/sitemap-index.xml", "/.sitemap.xml", "/sitemap", "/admin/config/search/xmlsitemap",
		"/sitemap_news.xml", "/sitemap-news.xml", "/sitemap_news.xml.gz", "/sitemap-news.xml.gz"} {
		st := "failed"
		if path == "/sitemap" {
			st = "not-sitemap"
		}
		want = append(want, fmt.Sprintf("1 well-known %s  %s (parent )", st, path))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if docs := s.GetDocuments(); docs[2].Errors != 0 || docs[4].Errors != 1 {
		t.Fatalf("errors counted: robots.txt %d, /gone.xml %d", docs[2].Errors, docs[4].Errors)
	}
}

// A redirect of the origin from http to https is followed once, on the home
// page: robots.txt and the well-known paths are requested over https, and
// nothing else over http.
func TestDiscoverOriginRedirectToHTTPS(t *testing.T) {
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, dHomeHTML)
		case "/sitemap.xml":
			fmt.Fprint(w, urlset("https://example.com/page"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer secure.Close()
	var mu sync.Mutex
	var plain []string
	insecure := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		plain = append(plain, r.URL.Path)
		mu.Unlock()
		http.Redirect(w, r, "https://example.com"+r.URL.Path, http.StatusMovedPermanently)
	}))
	defer insecure.Close()
	// example.com:80 is the plain server, example.com:443 the TLS one,
	// whose certificate names example.com.
	tr := secure.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		to := insecure.Listener.Addr().String()
		if strings.HasSuffix(addr, ":443") {
			to = secure.Listener.Addr().String()
		}
		return (&net.Dialer{}).DialContext(ctx, network, to)
	}
	s := sitemap.New().SetHTTPClient(&http.Client{Transport: tr}).SetStrict(true)
	if err := dDiscover(t, s, "http://example.com"); err != nil {
		t.Fatal(err)
	}
	dNoErrors(t, s)
	if got := dFound(s, "https://example.com"); !slices.Equal(got, []string{"well-known /sitemap.xml"}) {
		t.Fatalf("found %v", got)
	}
	if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{"https://example.com/page"}) {
		t.Fatalf("URLs %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(plain, []string{"/"}) {
		t.Fatalf("requested over http: %v", plain)
	}
	if d := dPlace(t, s, "http://example.com/"); d.FinalURL != "https://example.com/" {
		t.Fatalf("home page %+v", d)
	}
}

// dStream ranges over DiscoverStream under the guard, and returns the URLs
// and the errors it hands on; it leaves the loop after stopAfter URLs when
// that is above 0.
func dStream(t *testing.T, s *sitemap.S, site string, o *sitemap.DiscoverOptions, stopAfter int) (locs []string, errs []error) {
	t.Helper()
	guard(t, guardTimeout, func() {
		for u, err := range s.DiscoverStream(context.Background(), site, o) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			locs = append(locs, u.Loc)
			if len(locs) == stopAfter {
				break
			}
		}
	})
	return locs, errs
}

// DiscoverStream hands on what Discover keeps, in the same order when one
// sitemap is read at a time, and records the same places.
func TestDiscoverStreamAsDiscover(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/":                  `<html><head><link rel="sitemap" href="/linked.xml"></head></html>`,
		"/robots.txt":        "Sitemap: {base}/named.xml\nSitemap: {base}/gone.xml\n",
		"/named.xml":         urlset("{base}/1", "{base}/2"),
		"/linked.xml":        urlset("{base}/3"),
		"/sitemap_index.xml": index("{base}/child.xml"),
		"/child.xml":         urlset("{base}/4"),
	})
	s := newParser().SetMultiThread(false)
	if err := dDiscover(t, s, site.URL); err != nil {
		t.Fatal(err)
	}
	wantLocs, wantDocs := locsOf(s.GetURLs()), dFound(s, site.URL)
	locs, errs := dStream(t, s, site.URL, nil, 0)
	if !slices.Equal(locs, wantLocs) || len(wantLocs) != 4 {
		t.Fatalf("streamed %v, kept %v", locs, wantLocs)
	}
	if len(errs) != 1 || s.GetURLCount() != 0 || !slices.Equal(dFound(s, site.URL), wantDocs) {
		t.Fatalf("errors %v, %d URLs kept, found %v (want %v)", errs, s.GetURLCount(), dFound(s, site.URL), wantDocs)
	}
}

// Bad input, streaming: a catch-all server that answers every path with
// the same sitemap hands its URLs on once: a sitemap found holds its URLs
// until it is compared with those found before it.
func TestDiscoverStreamCatchAllSitemap(t *testing.T) {
	site := newDSite(t, nil)
	site.fallback = dBody(urlset("{base}/only", "{base}/other"))
	s := newParser()
	locs, errs := dStream(t, s, site.URL, nil, 0)
	if len(errs) != 0 || !slices.Equal(locs, []string{site.URL + "/only", site.URL + "/other"}) {
		t.Fatalf("URLs %v, errors %v", locs, errs)
	}
	if d := dPlace(t, s, site.URL+"/sitemap_index.xml"); d.Status != sitemap.StatusDuplicate || d.URLs != 0 {
		t.Fatalf("/sitemap_index.xml: %+v", d)
	}
	if d := dPlace(t, s, site.URL+"/sitemap.xml"); d.Status != sitemap.StatusParsed || d.URLs != 2 {
		t.Fatalf("/sitemap.xml: %+v", d)
	}
}

// Leaving the loop of DiscoverStream ends the discovery: at most the
// request under way when the loop is left reaches the site after it (the
// discovery may have run ahead of a slow loop until then), and no place is
// left queued or reading.
func TestDiscoverStreamBreak(t *testing.T) {
	site := newDSite(t, map[string]string{
		"/robots.txt": "Sitemap: {base}/named.xml\n",
		"/named.xml":  urlset("{base}/1", "{base}/2"),
	})
	s := newParser()
	var atBreak int
	guard(t, guardTimeout, func() {
		for _, err := range s.DiscoverStream(context.Background(), site.URL, nil) {
			if err == nil {
				atBreak = site.Total()
				break
			}
		}
	})
	if got := site.Total(); atBreak == 0 || got > atBreak+1 {
		t.Fatalf("%d requests when the loop was left, %d after the call (%v)", atBreak, got, site.Log())
	}
	for _, d := range s.GetDocuments() {
		if d.Status == sitemap.StatusQueued || d.Status == sitemap.StatusReading {
			t.Fatalf("left %s: %+v", d.Status, d)
		}
	}
}
