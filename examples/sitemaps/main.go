// Sitemaps lists the sitemaps a call finds: the Sitemap: lines of a
// robots.txt and the entries of every sitemap index read, whether they were
// fetched or not.
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
		"/robots.txt": "Sitemap: /sitemap-index.xml\n",
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-products.xml</loc><lastmod>2024-03-01</lastmod></sitemap>
  <sitemap><loc>/sitemap-blog.xml</loc></sitemap>
  <sitemap><loc>/sitemap-gone.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-products.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/products/teapot</loc></url></urlset>`,
		"/sitemap-blog.xml":     `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/</loc></url></urlset>`,
	})
	defer srv.Close()

	// Everything: the index the robots.txt names and the sitemaps the index
	// lists, the one that could not be fetched among them.
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/robots.txt", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("found:")
	for _, sm := range s.GetSitemaps() {
		date := "no date"
		if sm.LastMod != nil {
			date = sm.LastMod.Format("2006-01-02")
		}
		fmt.Printf("  %-22s %s\n", strings.TrimPrefix(sm.Loc, srv.URL), date)
	}
	fmt.Println(" ", s.GetURLCount(), "URLs,", s.GetErrorsCount(), "error")
	demo.Expect(s.GetSitemapCount() == 4 && s.GetURLCount() == 2 && s.GetErrorsCount() == 1, "4 sitemaps, 2 URLs, 1 error")

	// What an index lists, without fetching any of it: a follow rule that
	// no URL matches. The index itself, passed to Parse, is read.
	s, err = sitemap.New().SetFollow([]string{`^$`}).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("listed by the index, none fetched:")
	for _, sm := range s.GetSitemaps() {
		fmt.Println(" ", strings.TrimPrefix(sm.Loc, srv.URL))
	}
	demo.Expect(s.GetSitemapCount() == 3 && s.GetURLCount() == 0 && s.GetErrorsCount() == 0, "3 sitemaps and nothing else")
}
