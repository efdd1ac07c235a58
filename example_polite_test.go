package sitemap_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
)

// exPoliteServer serves a urlset of one URL at every path, after answering
// the first fail requests with 503 Service Unavailable and Retry-After: 0.
func exPoliteServer(fail int64) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= fail {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com%s</loc></url></urlset>`, r.URL.Path)
	}))
	return srv, &n
}

func ExampleS_SetBlockPrivate() {
	// A loopback server stands for an internal service, such as a cloud
	// metadata endpoint or a database, that a sitemap names.
	srv, n := exPoliteServer(0)
	defer srv.Close()

	s := sitemap.New().SetBlockPrivate(true)
	_, err := s.Parse(srv.URL+"/sitemap.xml", nil)
	var nerr *sitemap.NetworkError
	fmt.Println(errors.As(err, &nerr), errors.Is(err, sitemap.ErrBlockedAddress))
	fmt.Println(n.Load(), "requests reached the server")
	// Output:
	// true true
	// 0 requests reached the server
}

func ExampleIsBlockedAddress() {
	for _, a := range []string{"93.184.215.14", "169.254.169.254", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "2606:4700::1111"} {
		blocked, class := sitemap.IsBlockedAddress(netip.MustParseAddr(a))
		if blocked {
			fmt.Println(a, "refused:", class)
		} else {
			fmt.Println(a, "allowed")
		}
	}
	// Output:
	// 93.184.215.14 allowed
	// 169.254.169.254 refused: link-local
	// ::ffff:10.0.0.1 refused: IPv4-mapped private
	// 64:ff9b::7f00:1 refused: NAT64 loopback
	// 2606:4700::1111 allowed
}

func ExampleBlockPrivateDialer() {
	srv, _ := exPoliteServer(0)
	defer srv.Close()

	// A client of one's own is guarded by the dialer of its transport.
	dialer := sitemap.BlockPrivateDialer(&net.Dialer{Timeout: 30 * time.Second})
	transport := &http.Transport{DialContext: dialer.DialContext}
	defer transport.CloseIdleConnections()
	s := sitemap.New().SetHTTPClient(&http.Client{Transport: transport, Timeout: 30 * time.Second})
	_, err := s.Parse(srv.URL+"/sitemap.xml", nil)
	fmt.Println(errors.Is(err, sitemap.ErrBlockedAddress))
	// Output:
	// true
}

func ExampleRetry() {
	// The server is overloaded for two requests, and asks to come back at
	// once (Retry-After: 0).
	srv, n := exPoliteServer(2)
	defer srv.Close()

	s := sitemap.New().SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: 3, MaxWait: 10 * time.Second}})
	if _, err := s.Parse(srv.URL+"/sitemap.xml", nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GetURLCount(), "URL after", n.Load(), "requests")
	// Output:
	// 1 URL after 3 requests
}

func ExampleHostLimits() {
	var inFlight, most atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap><sitemap><loc>%[1]s/c.xml</loc></sitemap></sitemapindex>`, srv.URL)
			return
		}
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`)
	}))
	defer srv.Close()

	s := sitemap.New().SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{MaxConcurrency: 1}})
	if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GetURLCount(), "URLs, at most", most.Load(), "request in flight")
	// Output:
	// 3 URLs, at most 1 request in flight
}

func ExampleS_SetPoliteness() {
	srv, n := exPoliteServer(0)
	defer srv.Close()

	// 50 requests a second: each request to the host after its first
	// waits its turn, 20 ms.
	s := sitemap.New().SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 50}})
	for _, path := range []string{"/a.xml", "/b.xml"} {
		if _, err := s.Parse(srv.URL+path, nil); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(n.Load(), "requests;", s.GetPoliteness().Host.Rate, "a second per host")
	// Output:
	// 2 requests; 50 a second per host
}

func ExampleHostLimits_crawlDelay() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprintf(w, "User-agent: *\nCrawl-delay: 5\n\nUser-agent: teabot\nCrawl-delay: 0.01\n\nSitemap: %s/a.xml\n", srv.URL)
			return
		}
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`)
	}))
	defer srv.Close()

	// teabot's group asks for 10 ms between requests, which the request
	// of a.xml waits after that of robots.txt; the others' would be 5 s.
	s := sitemap.New().SetUserAgent("teabot/1.0").SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{CrawlDelay: true}})
	if _, err := s.Parse(srv.URL+"/robots.txt", nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GetURLCount(), "URL, crawl delay", s.GetPoliteness().Host.CrawlDelay)
	// Output:
	// 1 URL, crawl delay true
}
