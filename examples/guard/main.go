// Guard refuses to connect to internal addresses: a sitemap that names a
// loopback server, redirects to one, or names a host that resolves to one
// is refused, whatever the URL says. Here a loopback server stands for an
// internal service, such as a cloud metadata endpoint.
package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	var hits atomic.Int64
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/secret</loc></url></urlset>`)
	}))
	defer internal.Close()
	_, port, _ := net.SplitHostPort(internal.Listener.Addr().String())

	s := sitemap.New().SetBlockPrivate(true)
	refused := 0
	for _, loc := range []string{
		internal.URL + "/sitemap.xml",               // the address itself
		"http://localhost:" + port + "/sitemap.xml", // a name that resolves to it
	} {
		_, err := s.Parse(loc, nil)
		var nerr *sitemap.NetworkError
		if errors.As(err, &nerr) && errors.Is(err, sitemap.ErrBlockedAddress) {
			refused++
		}
		fmt.Println(err)
	}

	// The classifier on its own.
	for _, a := range []string{"169.254.169.254", "::ffff:192.168.1.1", "2002:7f00:1::", "8.8.8.8"} {
		blocked, class := sitemap.IsBlockedAddress(netip.MustParseAddr(a))
		fmt.Printf("%-20s blocked=%v %s\n", a, blocked, class)
	}
	demo.Expect(refused == 2 && hits.Load() == 0, "both requests refused before they reached the server")
}
