// Reader shows a crawler's frontier that fetches every document itself and
// hands the bytes to the library: ParseReader for the entries, the child
// sitemaps and their lastmod, with Selection.RootOnly so that nothing at
// all is fetched, and StreamReader to read a large document in flat memory.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	ctx := context.Background()

	// The bytes of an index the frontier fetched: the library reads them
	// and fetches none of the sitemaps they list.
	index := []byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-1.xml.gz</loc><lastmod>2024-05-01T10:00:00Z</lastmod></sitemap>
  <sitemap><loc>/sitemap-2.xml.gz</loc><lastmod>2024-04-01</lastmod></sitemap>
</sitemapindex>`)
	s, err := sitemap.New().SetSelection(sitemap.Selection{RootOnly: true}).ParseReader(ctx, "https://example.com/sitemap-index.xml", bytes.NewReader(index))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("children to schedule:")
	for _, sm := range s.GetSitemaps() {
		fmt.Println(" ", sm.Loc, "lastmod", sm.LastMod.Format("2006-01-02"))
	}
	demo.Expect(s.GetSitemapCount() == 2, "two children")

	// One of the children, gzipped as served: its URLs one at a time.
	child := gzipped(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/a</loc><lastmod>2024-05-01</lastmod></url>
  <url><loc>https://example.com/b</loc></url>
  <url><lastmod>2024-05-02</lastmod></url>
</urlset>`)
	fmt.Println("entries of sitemap-1.xml.gz:")
	n := 0
	for u, err := range sitemap.New().StreamReader(ctx, "https://example.com/sitemap-1.xml.gz", bytes.NewReader(child)) {
		if err != nil {
			fmt.Println("  skipped:", err)
			continue
		}
		n++
		fmt.Println(" ", u.Loc, "from", u.Source.URL())
	}
	demo.Expect(n == 2, "two URLs")
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.Bytes()
}
