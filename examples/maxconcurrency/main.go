// MaxConcurrency bounds how many sitemaps are fetched and parsed at the
// same time, across the whole call. The server here counts the requests in
// flight.
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
	var inFlight, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if r.URL.Path == "/sitemap-index.xml" {
			var b strings.Builder
			b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 20 {
				fmt.Fprintf(&b, "<sitemap><loc>/sitemap-%d.xml</loc></sitemap>", i)
			}
			b.WriteString("</sitemapindex>")
			io.WriteString(w, b.String())
			return
		}
		time.Sleep(10 * time.Millisecond) // a server that takes its time
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com%s</loc></url></urlset>`,
			strings.TrimSuffix(r.URL.Path, ".xml"))
	}))
	defer srv.Close()

	// At most 3 of the 20 sitemaps at a time; 0 would be no limit.
	s, err := sitemap.New().SetMaxConcurrency(3).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.GetURLCount(), "URLs; at most", most.Load(), "requests in flight at a time")
	demo.Expect(s.GetURLCount() == 20 && most.Load() <= 3, "20 URLs, never more than 3 requests at a time")
}
