// Follow sets follow rules: regular expressions that decide which of the
// sitemaps a robots.txt or a sitemap index lists are fetched. The others are
// still listed by GetSitemaps.
package main

import (
	"fmt"
	"log"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	srv := demo.Serve(map[string]string{
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-products.xml</loc></sitemap>
  <sitemap><loc>/sitemap-products-2.xml</loc></sitemap>
  <sitemap><loc>/sitemap-blog.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-products.xml":   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/products/teapot</loc></url></urlset>`,
		"/sitemap-products-2.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/products/kettle</loc></url></urlset>`,
		"/sitemap-blog.xml":       `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/</loc></url></urlset>`,
	})
	defer srv.Close()

	// An expression matches anywhere in the URL unless it is anchored. The
	// URL passed to Parse is always fetched.
	s, err := sitemap.New().SetMultiThread(false).
		SetFollow([]string{`/sitemap-products(-\d+)?\.xml$`}).
		Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, sm := range s.GetSitemaps() {
		fmt.Println("listed: ", strings.TrimPrefix(sm.Loc, srv.URL))
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:    ", u.Loc)
	}

	demo.Expect(s.GetSitemapCount() == 3, "3 sitemaps listed")
	demo.Expect(s.GetURLCount() == 2 && s.GetURLs()[1].Loc == "https://example.com/products/kettle",
		"the URLs of the two product sitemaps only")
}
