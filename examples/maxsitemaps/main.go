// MaxSitemaps bounds how many sitemaps a call fetches, and lists. Once the
// limit is reached, the sitemaps left are not fetched and one *ParseError
// wrapping ErrMaxSitemaps is recorded for the call.
package main

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	site := map[string]string{}
	var index strings.Builder
	index.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&index, "<sitemap><loc>/sitemap-%d.xml</loc></sitemap>", i)
		site[fmt.Sprintf("/sitemap-%d.xml", i)] = fmt.Sprintf(
			`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/page-%d</loc></url></urlset>`, i)
	}
	index.WriteString("</sitemapindex>")
	site["/sitemap-index.xml"] = index.String()
	srv := demo.Serve(site)
	defer srv.Close()

	// One at a time, so that it is the first three that are fetched. The
	// index passed to Parse does not count.
	s, err := sitemap.New().SetMaxSitemaps(3).SetMultiThread(false).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		log.Fatal(err) // reaching the limit does not fail the call
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:", u.Loc)
	}
	fmt.Println(s.GetSitemapCount(), "sitemaps listed")
	for _, e := range s.GetErrors() {
		fmt.Println("error:", strings.ReplaceAll(e.Error(), srv.URL, ""), "| ErrMaxSitemaps:", errors.Is(e, sitemap.ErrMaxSitemaps))
	}
	demo.Expect(s.GetURLCount() == 3 && s.GetSitemapCount() == 3, "3 sitemaps fetched and listed")
	demo.Expect(s.GetErrorsCount() == 1 && errors.Is(s.GetErrors()[0], sitemap.ErrMaxSitemaps), "one ErrMaxSitemaps")
}
