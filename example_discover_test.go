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
	s, err := sitemap.New().SetMultiThread(false).Discover(context.Background(), srv.URL, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The places tried are documents of the call: those found directly
	// under the site or under what names them, read as sitemaps.
	for _, d := range s.GetDocuments() {
		if d.Depth > 0 && d.Status == sitemap.StatusParsed && d.Found != sitemap.FoundIndex &&
			d.Format != sitemap.FormatRobots && d.Format != sitemap.FormatHTML {
			fmt.Println(d.Found, exampleHost(srv, d.URL))
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

// DiscoverStream hands the URLs of the sitemaps found to the loop; with
// Selection.RootOnly it reads each place only to tell whether it is a sitemap.
// GetDocuments tells what came of every place tried: here the robots.txt,
// the sitemap it names, and a well-known path that answers with an HTML
// page (the home page and the other paths are not there).
func ExampleS_DiscoverStream() {
	srv := serveDocs(nil, map[string]string{
		"/robots.txt":  "Sitemap: /sitemap.xml\n",
		"/sitemap.xml": urlset("https://example.com/"),
		"/sitemap":     "<!DOCTYPE html><html><body>Our site map</body></html>",
	})
	defer srv.Close()

	s := sitemap.New().SetSelection(sitemap.Selection{RootOnly: true})
	for u, err := range s.DiscoverStream(context.Background(), srv.URL, nil) {
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(u.Loc)
	}
	for _, d := range s.GetDocuments()[1:] {
		if d.Status != sitemap.StatusFailed {
			fmt.Println(d.Status, d.Found, strings.TrimPrefix(d.URL, srv.URL))
		}
	}
	// Output:
	// https://example.com/
	// parsed robots /robots.txt
	// parsed robots /sitemap.xml
	// not-sitemap well-known /sitemap
}
