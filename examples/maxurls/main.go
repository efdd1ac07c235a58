// MaxURLs bounds how many URLs a call collects. The sitemap that reaches
// the limit is left unread from there on, the sitemaps after it are not
// fetched, and one *ParseError wrapping ErrMaxURLs is recorded.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

// urlset returns a sitemap of n pages, named after prefix.
func urlset(prefix string, n int) string {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "<url><loc>https://example.com/%s/%d</loc></url>", prefix, i)
	}
	b.WriteString("</urlset>")
	return b.String()
}

func main() {
	var (
		mu       sync.Mutex
		requests []string
	)
	site := map[string]string{
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/a.xml</loc></sitemap><sitemap><loc>/b.xml</loc></sitemap><sitemap><loc>/c.xml</loc></sitemap>
</sitemapindex>`,
		"/a.xml": urlset("a", 4),
		"/b.xml": urlset("b", 4),
		"/c.xml": urlset("c", 4),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.URL.Path)
		mu.Unlock()
		io.WriteString(w, site[r.URL.Path])
	}))
	defer srv.Close()

	s, err := sitemap.New().SetMaxURLs(6).SetMultiThread(false).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err) // reaching the limit does not fail the call
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:", u.Loc)
	}
	mu.Lock()
	defer mu.Unlock()
	fmt.Println("requested:", requests)
	for _, e := range s.GetErrors() {
		fmt.Println("error:", strings.ReplaceAll(e.Error(), srv.URL, ""), "| ErrMaxURLs:", errors.Is(e, sitemap.ErrMaxURLs))
	}
	demo.Expect(s.GetURLCount() == 6 && s.GetURLs()[5].Loc == "https://example.com/b/2", "the first 6 URLs")
	demo.Expect(len(requests) == 3, "c.xml not requested")
	demo.Expect(s.GetErrorsCount() == 1 && errors.Is(s.GetErrors()[0], sitemap.ErrMaxURLs), "one ErrMaxURLs")
}
