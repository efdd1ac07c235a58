// Text reads a plain-text sitemap: every line that begins with http:// or
// https:// is a page; every other line is skipped.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapTxt = `# The pages of example.com, one a line
https://example.com/
https://example.com/products

http://example.com/old-page
ftp://example.com/file.txt
see also: https://example.com/about
`

func main() {
	srv := demo.Serve(map[string]string{"/sitemap.txt": sitemapTxt})
	defer srv.Close()

	s, err := sitemap.New().Parse(srv.URL+"/sitemap.txt", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		// A text sitemap gives no date, no change frequency and no priority.
		fmt.Println(u.Loc, u.LastMod == nil, u.ChangeFreq == nil, u.Priority == nil)
	}
	demo.Expect(s.GetURLCount() == 3 && s.GetErrorsCount() == 0, "3 pages and no error")
}
