// Discover finds the sitemaps of a site that its robots.txt does not name
// (all of them, here): one its home page links to, a feed the home page
// announces, and one at a path sitemap generators write to. It prints each
// place it looked at (a document of GetDocuments), how it came to it and
// what it found there, then the URLs of the sitemaps found.
package main

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const homePage = `<!DOCTYPE html>
<html>
<head>
  <title>Example</title>
  <base href="/en/">
  <link rel="sitemap" type="application/xml" href="sitemap-pages.xml">
  <link rel="alternate" type="application/atom+xml" href="/blog/feed.atom">
</head>
<body>Welcome</body>
</html>`

func main() {
	srv := demo.Serve(map[string]string{
		"/":                     homePage,
		"/robots.txt":           "User-agent: *\nDisallow: /admin/\n",
		"/en/sitemap-pages.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/en/about</loc></url></urlset>`,
		"/blog/feed.atom":       `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/blog/hello"/></entry></feed>`,
		"/wp-sitemap.xml":       `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/shop/</loc></url></urlset>`,
		// A soft 404: an HTML page where a sitemap could have been.
		"/sitemap": "<!DOCTYPE html><html><body>Site map</body></html>",
	})
	defer srv.Close()

	// One sitemap after the other, so that the output is always the same.
	s, err := sitemap.New().SetMultiThread(false).Discover(context.Background(), srv.URL, nil)
	if err != nil {
		log.Fatal(err)
	}
	found := 0
	for _, d := range s.GetDocuments()[1:] { // the first is the site
		if d.Status == sitemap.StatusFailed {
			continue // a path that is not there: 404
		}
		isSitemap := d.Format != sitemap.FormatRobots && d.Format != sitemap.FormatHTML
		if d.Status == sitemap.StatusParsed && isSitemap {
			found++
		}
		fmt.Printf("%-12s %-10s %-7s %s\n", d.Status, d.Found, d.Format, strings.TrimPrefix(d.URL, srv.URL))
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:", u.Loc)
	}
	// Nothing the site did not announce is reported when it is not there.
	for _, e := range s.GetErrors() {
		fmt.Println("error:", e)
	}

	demo.Expect(found == 3 && s.GetURLCount() == 3, "3 sitemaps and 3 URLs")
	demo.Expect(s.GetErrorsCount() == 0, "no errors")
}
