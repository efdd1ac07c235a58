// Lastmod uses the dates a sitemap index gives its sitemaps: on a second
// visit, only the sitemaps modified since the first are read again.
package main

import (
	"fmt"
	"io"
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
	var requests atomic.Int32
	site := map[string]string{
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-2023.xml</loc><lastmod>2023-12-31</lastmod></sitemap>
  <sitemap><loc>/sitemap-2024.xml</loc><lastmod>2024-03-10T09:30:00+01:00</lastmod></sitemap>
  <sitemap><loc>/sitemap-pages.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-2023.xml":  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/2023/a</loc></url></urlset>`,
		"/sitemap-2024.xml":  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/2024/b</loc></url></urlset>`,
		"/sitemap-pages.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/about</loc></url></urlset>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		io.WriteString(w, site[r.URL.Path])
	}))
	defer srv.Close()

	lastVisit := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

	// First the index alone: its sitemaps are listed with their dates.
	s, err := sitemap.New().SetFollow([]string{`^$`}).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	var changed []string
	for _, sm := range s.GetSitemaps() {
		// A sitemap without a date may have been modified as well.
		if sm.LastMod == nil || sm.LastMod.After(lastVisit) {
			changed = append(changed, sm.Loc)
		}
	}

	// Then the sitemaps that changed, one call each on the same instance.
	s.SetFollow(nil)
	for _, loc := range changed {
		if _, err := s.Parse(loc, nil); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s\n", strings.TrimPrefix(loc, srv.URL), s.GetURLs()[0].Loc)
	}
	fmt.Println(requests.Load(), "requests: the index, and", len(changed), "of its", len(site)-1, "sitemaps")
	demo.Expect(len(changed) == 2 && requests.Load() == 3, "the 2024 sitemap and the undated one read again")
}
