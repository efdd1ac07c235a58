// Text reads a plain-text sitemap: every line that begins with http:// or
// https:// is a page; every other line is skipped.
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

const sitemapTxt = `# The pages of example.com, one a line
https://example.com/
https://example.com/products

http://example.com/old-page
ftp://example.com/file.txt
see also: https://example.com/about
`

func main() {
	srv := serve(map[string]string{"/sitemap.txt": sitemapTxt})
	defer srv.Close()

	s, err := sitemap.New().Parse(srv.URL+"/sitemap.txt", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		// A text sitemap gives no date, no change frequency and no priority.
		fmt.Println(u.Loc, u.LastMod == nil, u.ChangeFreq == nil, u.Priority == nil)
	}
	expect(s.GetURLCount() == 3 && s.GetErrorsCount() == 0, "3 pages and no error")
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
