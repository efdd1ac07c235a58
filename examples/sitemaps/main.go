// Sitemaps lists the sitemaps a call finds: the Sitemap: lines of a
// robots.txt and the entries of every sitemap index read, whether they were
// fetched or not.
package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/gositemap/sitemap"
)

func main() {
	srv := serve(map[string]string{
		"/robots.txt": "Sitemap: /sitemap-index.xml\n",
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-products.xml</loc><lastmod>2024-03-01</lastmod></sitemap>
  <sitemap><loc>/sitemap-blog.xml</loc></sitemap>
  <sitemap><loc>/sitemap-gone.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-products.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/products/teapot</loc></url></urlset>`,
		"/sitemap-blog.xml":     `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/</loc></url></urlset>`,
	})
	defer srv.Close()

	// Everything: the index the robots.txt names and the sitemaps the index
	// lists, the one that could not be fetched among them.
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/robots.txt", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("found:")
	for _, sm := range s.GetSitemaps() {
		date := "no date"
		if sm.LastMod != nil {
			date = sm.LastMod.Format("2006-01-02")
		}
		fmt.Printf("  %-22s %s\n", strings.TrimPrefix(sm.Loc, srv.URL), date)
	}
	fmt.Println(" ", s.GetURLCount(), "URLs,", s.GetErrorsCount(), "error")
	expect(s.GetSitemapCount() == 4 && s.GetURLCount() == 2 && s.GetErrorsCount() == 1, "4 sitemaps, 2 URLs, 1 error")

	// What an index lists, without fetching any of it: a follow rule that
	// no URL matches. The index itself, passed to Parse, is read.
	s, err = sitemap.New().SetFollow([]string{`^$`}).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("listed by the index, none fetched:")
	for _, sm := range s.GetSitemaps() {
		fmt.Println(" ", strings.TrimPrefix(sm.Loc, srv.URL))
	}
	expect(s.GetSitemapCount() == 3 && s.GetURLCount() == 0 && s.GetErrorsCount() == 0, "3 sitemaps and nothing else")
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
