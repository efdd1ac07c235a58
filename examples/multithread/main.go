// Multithread compares the two ways a call works through the sitemaps of
// an index: concurrently (the default), where the URLs of each sitemap stay
// together but the sitemaps come in the order they are finished, and one
// at a time, in the order they are listed.
package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

var site = map[string]string{
	"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/a.xml</loc></sitemap>
  <sitemap><loc>/b.xml</loc></sitemap>
</sitemapindex>`,
	"/a.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a/1</loc></url><url><loc>https://example.com/a/2</loc></url></urlset>`,
	"/b.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/b/1</loc></url><url><loc>https://example.com/b/2</loc></url></urlset>`,
}

// serve starts the site. Each sitemap waits up to 200 ms for the other one
// to be requested as well, so that requests made at the same time meet.
// most reports the most requests that were in flight at once.
func serve() (srv *httptest.Server, most func() int32) {
	var inFlight, peak, arrived atomic.Int32
	both := make(chan struct{}) // closed once both sitemaps are requested
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := peak.Load(); n > m && !peak.CompareAndSwap(m, n); m = peak.Load() {
		}
		if r.URL.Path != "/sitemap-index.xml" {
			if arrived.Add(1) == 2 {
				close(both)
			}
			select {
			case <-both:
			case <-time.After(200 * time.Millisecond):
			}
		}
		io.WriteString(w, site[r.URL.Path])
	}))
	return srv, peak.Load
}

func main() {
	var orders [][]string
	for _, multi := range []bool{true, false} {
		srv, most := serve()
		s, err := sitemap.New().SetMultiThread(multi).Parse(srv.URL+"/sitemap-index.xml", nil)
		srv.Close()
		if err != nil {
			log.Fatal(err)
		}
		var locs []string
		for u := range s.URLs() {
			locs = append(locs, u.Loc)
		}
		orders = append(orders, locs)
		fmt.Printf("multi-thread %-5v: at most %d requests at a time\n", multi, most())
		for _, loc := range locs {
			fmt.Println("  ", loc)
		}
		if multi {
			demo.Expect(most() == 2, "both sitemaps requested at the same time")
		} else {
			demo.Expect(most() == 1, "one request at a time")
		}
	}

	// One at a time: the order of the index. Concurrently: the URLs of each
	// sitemap together, either sitemap first.
	listed := []string{"https://example.com/a/1", "https://example.com/a/2", "https://example.com/b/1", "https://example.com/b/2"}
	demo.Expect(slices.Equal(orders[1], listed), "the listed order with multi-threading off")
	swapped := append(slices.Clone(listed[2:]), listed[:2]...)
	demo.Expect(slices.Equal(orders[0], listed) || slices.Equal(orders[0], swapped), "the URLs of each sitemap together")
}
