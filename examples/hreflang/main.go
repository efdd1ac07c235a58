// Hreflang reads the <xhtml:link> alternates of a page: the versions of it
// in other languages or for other regions, in URL.Hreflangs.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.com/en/teapot</loc>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/teapot"/>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/teekanne"/>
    <xhtml:link rel="alternate" hreflang="de-ch" href="https://example.com/de-ch/teekanne"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/teapot"/>
  </url>
</urlset>`

func main() {
	content := sitemapXML
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	u := s.GetURLs()[0]
	fmt.Println(u.Loc)
	for _, l := range u.Hreflangs {
		fmt.Printf("  %-9s %s\n", l.Hreflang, l.Href)
	}
	demo.Expect(len(u.Hreflangs) == 4 && u.Hreflangs[2].Hreflang == "de-ch" && u.Hreflangs[2].Rel == "alternate",
		"4 alternates, de-ch the third")
}
