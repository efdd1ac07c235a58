package sitemap_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gositemap/sitemap"
)

// A site whose robots.txt names one sitemap, whose home page announces a
// feed, and which has an index at a well-known path: Discover finds all
// three, then reads them as the Sitemap: lines of a robots.txt are read.
func ExampleS_Discover() {
	srv := serveDocs(nil, map[string]string{
		"/":                  `<html><head><link rel="alternate" type="application/rss+xml" href="/feed.rss"></head><body></body></html>`,
		"/robots.txt":        "User-agent: *\nSitemap: /news.xml\n",
		"/news.xml":          urlset("https://example.com/news/1"),
		"/feed.rss":          `<rss version="2.0"><channel><item><link>https://example.com/post/1</link></item></channel></rss>`,
		"/sitemap_index.xml": index("/pages.xml"),
		"/pages.xml":         urlset("https://example.com/about"),
	})
	defer srv.Close()

	// One sitemap after the other, so that the output is always the same.
	s, err := sitemap.New().SetMultiThread(false).Discover(context.Background(), srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range s.GetCandidates() {
		if c.Outcome == sitemap.OutcomeSitemap {
			fmt.Println(c.Found, exampleHost(srv, c.URL))
		}
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	fmt.Println(len(s.GetErrors()), "errors")
	// Output:
	// robots https://example.com/news.xml
	// feed https://example.com/feed.rss
	// well-known https://example.com/sitemap_index.xml
	// https://example.com/news/1
	// https://example.com/post/1
	// https://example.com/about
	// 0 errors
}

// DiscoverSitemaps tells what each candidate came to, without reading the
// sitemaps further: here the well-known paths that are not there, and one
// that answers with an HTML page.
func ExampleS_DiscoverSitemaps() {
	srv := serveDocs(nil, map[string]string{
		"/robots.txt":  "Sitemap: /sitemap.xml\n",
		"/sitemap.xml": urlset("https://example.com/"),
		"/sitemap":     "<!DOCTYPE html><html><body>Our site map</body></html>",
	})
	defer srv.Close()

	cands, err := sitemap.New().DiscoverSitemaps(context.Background(), srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cands {
		if c.Outcome != sitemap.OutcomeFailed {
			fmt.Println(c.Outcome, c.Found, strings.TrimPrefix(c.URL, srv.URL))
		}
	}
	// Output:
	// read robots /robots.txt
	// sitemap robots /sitemap.xml
	// not-sitemap well-known /sitemap
}
