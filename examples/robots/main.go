// Robots reads a robots.txt: the sitemaps its Sitemap: lines name are
// fetched, and every other line is passed over.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
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
	srv := demo.Serve(map[string]string{
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

	demo.Expect(s.GetSitemapCount() == 2 && s.GetURLCount() == 2, "2 sitemaps and 2 URLs")
	demo.Expect(s.GetErrorsCount() == 1 && s.GetErrors()[0].Error() == `validate "ftp://example.com/sitemap.xml": unsupported scheme "ftp"`,
		"the ftp line reported")
}
