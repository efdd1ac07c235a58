// UserAgent sets the User-Agent header of the requests, so that a site can
// tell who reads its sitemaps.
package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	agents := make(chan string, 2) // the User-Agent of each request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agents <- r.UserAgent()
		io.WriteString(w, "https://example.com/\n")
	}))
	defer srv.Close()

	if _, err := sitemap.New().Parse(srv.URL+"/sitemap.txt", nil); err != nil {
		log.Fatal(err)
	}
	def := <-agents
	fmt.Println("default:", def)

	s := sitemap.New().SetUserAgent("examplebot/1.0 (+https://example.org/bot)")
	if _, err := s.Parse(srv.URL+"/sitemap.txt", nil); err != nil {
		log.Fatal(err)
	}
	own := <-agents
	fmt.Println("set:    ", own)

	demo.Expect(def == sitemap.DefaultUserAgent && own == "examplebot/1.0 (+https://example.org/bot)", "both user agents sent")
}
