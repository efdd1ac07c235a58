// Robots reads a robots.txt: the sitemaps its Sitemap: lines name are
// fetched, and every other line is passed over.
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

// The directive may be written in any letter case and indented, what
// follows a # is a comment, and a relative location is resolved against
// the robots.txt.
const robotsTxt = `# robots.txt of example.com
User-agent: *
Disallow: /private/

Sitemap: /sitemap-pages.xml
  SITEMAP: /sitemap-blog.xml   # the blog
Sitemap: ftp://example.com/sitemap.xml
`

func main() {
	srv := serve(map[string]string{
		"/robots.txt":        robotsTxt,
		"/sitemap-pages.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`,
		"/sitemap-blog.xml":  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/</loc></url></urlset>`,
	})
	defer srv.Close()

	// A URL whose path ends in robots.txt is read as a robots.txt. One
	// sitemap after the other, so that the output is always the same.
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/robots.txt", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, sm := range s.GetSitemaps() {
		fmt.Println("sitemap:", sm.Loc)
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:", u.Loc)
	}
	// A Sitemap: line that is no HTTP(S) URL is skipped and reported.
	for _, e := range s.GetErrors() {
		fmt.Println("error:", e)
	}

	expect(s.GetSitemapCount() == 2 && s.GetURLCount() == 2, "2 sitemaps and 2 URLs")
	expect(s.GetErrorsCount() == 1 && s.GetErrors()[0].Error() == `validate "ftp://example.com/sitemap.xml": unsupported scheme "ftp"`,
		"the ftp line reported")
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
