// Tolerant shows what tolerant mode, the default, does with a sitemap that
// has mistakes in it, next to what strict mode does: relative locations,
// URLs that are not percent-encoded, entries without a location or a host,
// and XML mistakes.
package main

import (
	"fmt"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

// Mistakes in the values of a well-formed document.
const values = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>/relative/page</loc></url>
  <url><loc>https://example.com/search?q=summer sale</loc></url>
  <url><loc>https://example.com/café</loc></url>
  <url><loc>https://example.com/shop</loc><changefreq>Daily</changefreq><lastmod>2024-01-15 10:30:00</lastmod></url>
  <url><loc></loc></url>
  <url><loc>https:///page</loc></url>
</urlset>`

// XML mistakes: an unescaped &, an entity XML does not know, and the end
// tag of an entry missing. (A document that lacks its root's end tag was
// cut off: tolerant mode keeps its complete entries, and reports the cut.)
const markup = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/?a=1&b=2</loc></url>
  <url><loc>https://example.com/caf&eacute;</loc>
</urlset>`

func main() {
	for _, strict := range []bool{false, true} {
		fmt.Printf("== strict: %v\n", strict)
		for _, doc := range []string{values, markup} {
			s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &doc)
			for _, u := range s.GetURLs() {
				cf := "-"
				if u.ChangeFreq != nil {
					cf = string(*u.ChangeFreq)
				}
				fmt.Println("URL:  ", u.Loc, cf)
			}
			for _, e := range s.GetErrors() {
				fmt.Println("error:", e)
			}
			if err != nil {
				fmt.Println("the whole document is rejected")
			}
		}
	}

	// Tolerant mode: the first four entries are kept, resolved and encoded.
	content := values
	s, _ := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	urls := s.GetURLs()
	demo.Expect(len(urls) == 4, "4 URLs in tolerant mode")
	demo.Expect(urls[0].Loc == "https://example.com/relative/page", "the relative location resolved")
	demo.Expect(urls[1].Loc == "https://example.com/search?q=summer%20sale", "the space percent-encoded")
	demo.Expect(urls[2].Loc == "https://example.com/caf%C3%A9", "the é percent-encoded")
	demo.Expect(*urls[3].ChangeFreq == sitemap.ChangeFreqDaily && urls[3].LastMod == nil, "Daily read as daily, the bad date left nil")
	// The bad date, the empty location and the one without a host.
	demo.Expect(s.GetErrorsCount() == 3, "3 errors in tolerant mode")

	content = markup
	_, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	_, strictErr := sitemap.New().SetStrict(true).Parse("https://example.com/sitemap.xml", &content)
	demo.Expect(err == nil && strictErr != nil, "XML mistakes read past in tolerant mode, rejected in strict mode")
}
