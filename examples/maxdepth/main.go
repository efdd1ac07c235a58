// MaxDepth bounds how many levels of sitemap indexes are followed. The
// sitemaps below the limit are listed but not fetched, and one *ParseError
// wrapping ErrMaxDepth names each index whose sitemaps were not followed.
package main

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	srv := demo.Serve(map[string]string{
		// A robots.txt is no level: what it names is level 0.
		"/robots.txt":          "Sitemap: /sitemap-index.xml\n",
		"/sitemap-index.xml":   `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/sitemap-index-2.xml</loc></sitemap><sitemap><loc>/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
		"/sitemap-index-2.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/sitemap-blog.xml</loc></sitemap></sitemapindex>`,
		"/sitemap-pages.xml":   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`,
		"/sitemap-blog.xml":    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/</loc></url></urlset>`,
	})
	defer srv.Close()

	for _, depth := range []int{1, 2} {
		s, err := sitemap.New().SetMaxDepth(depth).Parse(srv.URL+"/robots.txt", nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("max depth %d: %d URLs, %d sitemaps listed\n", depth, s.GetURLCount(), s.GetSitemapCount())
		for _, e := range s.GetErrors() {
			fmt.Println("  error:", strings.ReplaceAll(e.Error(), srv.URL, ""), "| ErrMaxDepth:", errors.Is(e, sitemap.ErrMaxDepth))
		}
		if depth == 1 {
			// sitemap-blog.xml, at level 2, is listed but not fetched.
			demo.Expect(s.GetURLCount() == 1 && s.GetSitemapCount() == 4 && s.GetErrorsCount() == 1 &&
				errors.Is(s.GetErrors()[0], sitemap.ErrMaxDepth), "1 URL, 4 sitemaps and the depth error")
		} else {
			demo.Expect(s.GetURLCount() == 2 && s.GetErrorsCount() == 0, "2 URLs and no error")
		}
	}
}
