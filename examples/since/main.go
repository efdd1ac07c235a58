// Since asks a site only for what changed since a time: the sitemaps that
// the index dates before it are not fetched, and the URLs dated before it
// are left out. A date without a time counts as the whole day.
package main

import (
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	srv := demo.Serve(map[string]string{
		"/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/archive-2023.xml</loc><lastmod>2023-12-31</lastmod></sitemap>
  <sitemap><loc>/blog.xml</loc><lastmod>2024-03-02T08:00:00Z</lastmod></sitemap>
</sitemapindex>`,
		"/archive-2023.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/2023/review</loc><lastmod>2023-12-31</lastmod></url>
</urlset>`,
		"/blog.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/blog/winter</loc><lastmod>2024-02-20</lastmod></url>
  <url><loc>https://example.com/blog/spring</loc><lastmod>2024-03-01</lastmod></url>
  <url><loc>https://example.com/blog/today</loc><lastmod>2024-03-02T07:30:00Z</lastmod></url>
  <url><loc>https://example.com/blog/about</loc></url>
</urlset>`,
	})
	defer srv.Close()

	since := time.Date(2024, 3, 1, 18, 0, 0, 0, time.UTC)
	s := sitemap.New().SetIncremental(sitemap.Incremental{Since: since})
	if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil {
		log.Fatal(err)
	}
	for _, d := range s.GetDocuments() {
		fmt.Printf("%-18s %s\n", strings.TrimPrefix(d.URL, srv.URL), d.Status)
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// spring (2024-03-01) is kept: the day holds the time asked for.
	demo.Expect(s.GetURLCount() == 3, "spring, today and about: winter is older, the archive not fetched")
}
