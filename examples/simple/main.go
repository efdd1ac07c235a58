// Simple reads a sitemap and prints the URLs of its pages: the shortest
// way to use the library.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
  <url><loc>https://example.com/products</loc></url>
  <url><loc>https://example.com/about</loc></url>
</urlset>`

func main() {
	// A local server stands in for the web site, so the example runs offline.
	srv := demo.Serve(map[string]string{"/sitemap.xml": sitemapXML})
	defer srv.Close()

	// New returns an instance with the default settings; Parse fetches the
	// sitemap, and every sitemap it leads to.
	s, err := sitemap.New().Parse(srv.URL+"/sitemap.xml", nil)
	if err != nil {
		log.Fatal(err) // the sitemap itself could not be fetched or parsed
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	fmt.Println(s.GetURLCount(), "URLs,", s.GetErrorsCount(), "errors")

	demo.Expect(s.GetURLCount() == 3 && s.GetErrorsCount() == 0, "3 URLs and no error")
}
