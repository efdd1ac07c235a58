// Simple reads a sitemap and prints the URLs of its pages: the shortest
// way to use the library.
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

const sitemapXML = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
  <url><loc>https://example.com/products</loc></url>
  <url><loc>https://example.com/about</loc></url>
</urlset>`

func main() {
	// A local server stands in for the web site, so the example runs offline.
	srv := serve(map[string]string{"/sitemap.xml": sitemapXML})
	defer srv.Close()

	// New returns an instance with the default settings; Parse fetches the
	// sitemap, and every sitemap it leads to.
	s, err := sitemap.New().Parse(srv.URL+"/sitemap.xml", nil)
	if err != nil {
		log.Fatal(err) // the sitemap itself could not be fetched or parsed
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	fmt.Println(s.GetURLCount(), "URLs,", s.GetErrorsCount(), "errors")

	expect(s.GetURLCount() == 3 && s.GetErrorsCount() == 0, "3 URLs and no error")
}

// serve answers with the documents of site, by path, as a web site would.
// It listens on the loopback interface only.
func serve(site map[string]string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, doc)
	}))
}

// expect ends the program with status 1 when the example did not show what
// it is meant to show, so that CI notices.
func expect(ok bool, what string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "unexpected outcome, want", what)
		os.Exit(1)
	}
}
