// Tree prints the tree of a call: every document it came to know of (the
// robots.txt given, the index it names, the sitemaps the index lists),
// indented under the document that listed it, with how it was found, its
// status, format, size, URLs and errors. Sitemaps past a limit or a follow
// rule are in it too, with the reason they were not read.
package main

import (
	"fmt"
	"log"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	srv := demo.Serve(map[string]string{
		"/robots.txt": "Sitemap: /sitemap-index.xml\n",
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-products.xml</loc></sitemap>
  <sitemap><loc>/sitemap-archive.xml</loc></sitemap>
  <sitemap><loc>/sitemap-gone.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-products.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/teapot</loc></url>
  <url><loc>https://example.com/kettle</loc></url>
</urlset>`,
	})
	defer srv.Close()

	// The archive is not to be read: a follow rule leaves it out.
	s, err := sitemap.New().SetMultiThread(false).SetFollow([]string{`products|gone|index`}).
		Parse(srv.URL+"/robots.txt", nil)
	if err != nil {
		log.Fatal(err)
	}
	docs := s.GetDocuments()
	for _, d := range docs {
		fmt.Printf("%-34s %-12s %-7s %-6s %4d B %d URLs %d errors",
			strings.Repeat("  ", d.Depth)+strings.TrimPrefix(d.URL, srv.URL),
			d.Status, d.Found, d.Format, d.WireBytes, d.URLs, d.Errors)
		if d.Err != nil {
			fmt.Printf("  (%v)", strings.ReplaceAll(d.Err.Error(), srv.URL, ""))
		}
		fmt.Println()
	}
	demo.Expect(len(docs) == 5 && docs[3].Status == sitemap.StatusNotFollowed && docs[4].Status == sitemap.StatusFailed,
		"5 documents, the archive not followed and the gone one failed")
}
