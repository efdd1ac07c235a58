// Hostlimits keeps a call polite to each host: at most one request in
// flight to it, at most 20 a second, and the Crawl-delay its robots.txt
// asks of the crawler's user agent.
package main

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	var inFlight, most atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		switch r.URL.Path {
		case "/robots.txt":
			// examplebot is asked for 50 ms between requests, others for 10 s.
			fmt.Fprintf(w, "User-agent: *\nCrawl-delay: 10\n\nUser-agent: examplebot\nCrawl-delay: 0.05\n\nSitemap: %s/index.xml\n", srv.URL)
		case "/index.xml":
			var b strings.Builder
			b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 5 {
				fmt.Fprintf(&b, "<sitemap><loc>%s/sitemap-%d.xml</loc></sitemap>", srv.URL, i)
			}
			b.WriteString("</sitemapindex>")
			fmt.Fprint(w, b.String())
		default:
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com%s</loc></url></urlset>`,
				strings.TrimSuffix(r.URL.Path, ".xml"))
		}
	}))
	defer srv.Close()

	s := sitemap.New().
		SetUserAgent("examplebot/1.0 (+https://example.org/bot)").
		SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{
			MaxConcurrency: 1,    // requests in flight to one host
			Rate:           20,   // requests a second to one host
			CrawlDelay:     true, // and the robots.txt's Crawl-delay, when slower
		}})
	start := time.Now()
	if _, err := s.Parse(srv.URL+"/robots.txt", nil); err != nil {
		log.Fatal(err)
	}
	took := time.Since(start)
	fmt.Printf("%d URLs; at most %d request in flight; 6 requests after the robots.txt in %v\n",
		s.GetURLCount(), most.Load(), took.Round(10*time.Millisecond))
	demo.Expect(s.GetURLCount() == 5 && most.Load() == 1 && took >= 6*50*time.Millisecond && took < 10*time.Second,
		"5 URLs, one request at a time, spaced by examplebot's 50 ms")
}
