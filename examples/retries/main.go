// Retries tries a request again when the server is overloaded: it answers
// 429 Too Many Requests with Retry-After: 1 twice, and the sitemap on the
// third try. The call waits the second the server asks for each time.
package main

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= 2 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`)
	}))
	defer srv.Close()

	// Up to 3 more tries; a Retry-After over 10 s would end them instead.
	s := sitemap.New().SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 3, MaxWait: 10 * time.Second}})
	start := time.Now()
	if _, err := s.Parse(srv.URL+"/sitemap.xml", nil); err != nil {
		log.Fatal(err)
	}
	took := time.Since(start).Round(100 * time.Millisecond)
	fmt.Println(s.GetURLCount(), "URLs after", n.Load(), "requests, in", took)
	demo.Expect(s.GetURLCount() == 2 && n.Load() == 3 && took >= 2*time.Second, "2 URLs after 3 requests, two waits of 1 s")
}
