// UserAgent sets the User-Agent header of the requests, so that a site can
// tell who reads its sitemaps.
package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/gositemap/sitemap"
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

	expect(def == sitemap.DefaultUserAgent && own == "examplebot/1.0 (+https://example.org/bot)", "both user agents sent")
}

// expect ends the program with status 1 when the example did not show what
// it is meant to show, so that CI notices.
func expect(ok bool, what string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "unexpected outcome, want", what)
		os.Exit(1)
	}
}
