// Migrate is a program written for go-sitemap-parser v1.0.1, as its README
// shows the API, that runs against this module with one change: the import
// path. It counts in int64, decodes a <url> into sitemap.URL with
// encoding/xml, and reads the errors with errors.As, as v1.0.1 code does.
package main

import (
	"encoding/xml"
	"errors"
	"fmt"
	"log"
	"os"

	// Under v1.0.1: "github.com/aafeher/go-sitemap-parser"
	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const (
	robotsTxt = "User-agent: *\nSitemap: /sitemap-index.xml\n"
	index     = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-pages.xml</loc><lastmod>2024-01-15</lastmod></sitemap>
  <sitemap><loc>/sitemap-gone.xml</loc></sitemap>
</sitemapindex>`
	pages = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>/</loc><lastmod>2024-01-15T10:30:00+01:00</lastmod><priority>1.0</priority></url>
  <url><loc>/products</loc><changefreq>daily</changefreq>
    <image:image><image:loc>https://cdn.example.com/p.jpg</image:loc></image:image></url>
  <url><loc>/about</loc></url>
</urlset>`
	// A <url> that a program of its own keeps, say in a queue, and reads
	// back with encoding/xml.
	stored = `<url xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <loc>https://example.com/stored</loc><lastmod>2024-02-01</lastmod>
  <image:image><image:loc>https://cdn.example.com/s.jpg</image:loc></image:image>
</url>`
)

func main() {
	// A local server stands in for the web site, so the program runs offline.
	srv := demo.Serve(map[string]string{"/robots.txt": robotsTxt, "/sitemap-index.xml": index, "/sitemap-pages.xml": pages})
	defer srv.Close()

	s := sitemap.New()
	s = s.SetUserAgent("YourUserAgent")
	s = s.SetFetchTimeout(10)

	s, err := s.Parse(srv.URL+"/robots.txt", nil)
	if err != nil {
		log.Fatal(err)
	}

	urls := s.GetURLs()
	for _, u := range urls {
		fmt.Println(u.Loc[len(srv.URL):], len(u.Images), "images")
	}
	var count int64 = s.GetURLCount()
	var errorsCount int64 = s.GetErrorsCount()
	fmt.Println(count, "URLs,", errorsCount, "error")
	randomURLs := s.GetRandomURLs(2)

	var netErr *sitemap.NetworkError
	for _, err := range s.GetErrors() {
		if errors.As(err, &netErr) {
			fmt.Println("could not fetch", netErr.URL[len(srv.URL):])
		}
	}

	var u sitemap.URL
	if err := xml.Unmarshal([]byte(stored), &u); err != nil {
		log.Fatal(err)
	}
	fmt.Println(u.Loc, u.LastMod.Format("2006-01-02"), u.Images[0].Loc)

	expect(count == 3 && errorsCount == 1 && len(randomURLs) == 2, "3 URLs, 1 error and 2 random URLs")
	expect(netErr != nil && netErr.URL == srv.URL+"/sitemap-gone.xml", "the sitemap that is gone reported")
	expect(len(urls) == 3 && urls[0].LastMod != nil && urls[0].LastMod.Year() == 2024 && len(urls[1].Images) == 1,
		"the dates and images of the sitemap")
	expect(u.Loc == "https://example.com/stored" && u.LastMod != nil && len(u.Images) == 1,
		"the stored <url> decoded with encoding/xml")
}

// expect ends the program with status 1 when it did not show what it is
// meant to show, so that CI notices.
func expect(ok bool, what string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "unexpected outcome, want", what)
		os.Exit(1)
	}
}
