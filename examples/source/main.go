// Source groups the URLs of a site by the sitemap that listed each, as a
// crawler does to tell which sitemap a page it cannot fetch came from. The
// Source of a URL costs it a pointer: the URLs of one sitemap share it.
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
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-products.xml</loc></sitemap>
  <sitemap><loc>/sitemap-blog.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-products.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/teapot</loc></url>
  <url><loc>https://example.com/kettle</loc></url>
</urlset>`,
		"/sitemap-blog.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/blog/hello</loc></url>
</urlset>`,
	})
	defer srv.Close()

	s, err := sitemap.New().Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	bySitemap := map[sitemap.Source][]string{}
	var order []sitemap.Source
	for u := range s.URLs() {
		if bySitemap[u.Source] == nil {
			order = append(order, u.Source)
		}
		bySitemap[u.Source] = append(bySitemap[u.Source], u.Loc)
	}
	for _, src := range order {
		fmt.Println(strings.TrimPrefix(src.URL(), srv.URL)+":", strings.Join(bySitemap[src], " "))
	}
	expect(len(bySitemap) == 2, "URLs from 2 sitemaps")
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
