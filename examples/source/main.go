// Source groups the URLs of a site by the sitemap that listed each, as a
// crawler does to tell which sitemap a page it cannot fetch came from. The
// Source of a URL costs it a pointer: the URLs of one sitemap share it.
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
  <sitemap><loc>/sitemap-blog.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-products.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/teapot</loc></url>
  <url><loc>https://example.com/kettle</loc></url>
</urlset>`,
		"/sitemap-blog.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/blog/hello</loc></url>
</urlset>`,
	})
	defer srv.Close()

	s, err := sitemap.New().Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	bySitemap := map[sitemap.Source][]string{}
	var order []sitemap.Source
	for u := range s.URLs() {
		if bySitemap[u.Source] == nil {
			order = append(order, u.Source)
		}
		bySitemap[u.Source] = append(bySitemap[u.Source], u.Loc)
	}
	for _, src := range order {
		fmt.Println(strings.TrimPrefix(src.URL(), srv.URL)+":", strings.Join(bySitemap[src], " "))
	}
	demo.Expect(len(bySitemap) == 2, "URLs from 2 sitemaps")
}
