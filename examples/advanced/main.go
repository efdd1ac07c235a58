// Advanced sets an instance up the way a crawler would: its own user agent,
// tighter limits, follow rules and URL rules, a deadline for the whole call,
// and a look at every error once the call is over.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

// The site: a robots.txt names a sitemap index, which lists sitemaps.
var site = map[string]string{
	"/robots.txt": "User-agent: *\nDisallow: /cart/\nSitemap: /sitemap-index.xml\n",
	"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-products.xml</loc></sitemap>
  <sitemap><loc>/sitemap-blog.xml</loc></sitemap>
  <sitemap><loc>/sitemap-archive-2019.xml</loc></sitemap>
  <sitemap><loc>/sitemap-gone.xml</loc></sitemap>
</sitemapindex>`,
	"/sitemap-products.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/products/teapot</loc><lastmod>2024-02-20</lastmod></url>
  <url><loc>https://example.com/products/kettle</loc><lastmod>2024-02-22</lastmod></url>
  <url><loc>https://partner.example/teapots</loc></url>
</urlset>`,
	"/sitemap-blog.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/blog/spring-sale</loc><lastmod>2024-03-10T09:30:00+01:00</lastmod></url>
</urlset>`,
	"/sitemap-archive-2019.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/blog/2019/old-post</loc></url>
</urlset>`,
}

func main() {
	srv := demo.Serve(site)
	defer srv.Close()

	s := sitemap.New().
		SetUserAgent("examplebot/1.0 (+https://example.org/bot)").
		SetFetchTimeout(10).          // seconds a request may take
		SetMaxResponseSize(10 << 20). // 10 MB a document, decompressed
		SetMaxDepth(3).               // levels of sitemap indexes
		SetMaxSitemaps(100).          // sitemaps a call fetches
		SetMaxURLs(100000).           // URLs a call keeps
		SetMaxConcurrency(4).         // sitemaps worked on at a time
		// Every sitemap but the archive; only the pages of the site.
		SetFollow([]string{`/sitemap-(index|products|blog|gone)\.xml$`}).
		SetRules([]string{`^https://example\.com/`})

	// The deadline bounds the whole call, every request it makes included.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.ParseContext(ctx, srv.URL+"/robots.txt", nil); err != nil {
		log.Fatal(err) // the robots.txt itself could not be read
	}

	// With multi-threading on, the sitemaps arrive in any order: sort a copy.
	urls := slices.Collect(s.URLs())
	slices.SortFunc(urls, func(a, b sitemap.URL) int { return cmp.Compare(a.Loc, b.Loc) })
	for _, u := range urls {
		date := "no date"
		if u.LastMod != nil {
			date = u.LastMod.Format(time.DateOnly)
		}
		fmt.Printf("%-45s %s\n", u.Loc, date)
	}
	fmt.Println(s.GetSitemapCount(), "sitemaps listed")

	// Parse succeeded, yet a sitemap could not be fetched: look at the errors.
	var netErrs int
	for err := range s.Errors() {
		var netErr *sitemap.NetworkError
		if errors.As(err, &netErr) {
			netErrs++
		}
		fmt.Println("error:", err)
	}

	demo.Expect(len(urls) == 3, "3 URLs of example.com")
	demo.Expect(s.GetSitemapCount() == 5, "5 sitemaps listed, the archive among them")
	demo.Expect(netErrs == 1 && s.GetErrorsCount() == 1, "one error: the sitemap that is gone")
}
