// IDN shows internationalised host names. Tolerant mode returns every URL
// with the Punycode form of its host, the name a request goes to, whichever
// form the document writes; strict mode returns a URL as the document gives
// it, and takes both forms of a name for the same host.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://bücher.example/page</loc></url>
  <url><loc>https://BÜCHER.example/other</loc></url>
  <url><loc>https://xn--bcher-kva.example/third</loc></url>
  <url><loc>/relative</loc></url>
</urlset>`

func main() {
	content := sitemapXML
	s, err := sitemap.New().Parse("https://bücher.example/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	want := []string{
		"https://xn--bcher-kva.example/page",
		"https://xn--bcher-kva.example/other",
		"https://xn--bcher-kva.example/third",
		"https://xn--bcher-kva.example/relative",
	}
	fmt.Println("tolerant:")
	for i, u := range s.GetURLs() {
		fmt.Println(" ", u.Loc)
		demo.Expect(i < len(want) && u.Loc == want[i], want[min(i, len(want)-1)])
	}
	demo.Expect(s.GetURLCount() == int64(len(want)), "4 URLs in tolerant mode")

	// Strict mode: the absolute URLs are on the host of the sitemap, in
	// either form, and come back as written; the relative one is rejected.
	s, err = sitemap.New().SetStrict(true).Parse("https://bücher.example/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("strict:")
	for _, u := range s.GetURLs() {
		fmt.Println(" ", u.Loc)
	}
	for _, e := range s.GetErrors() {
		fmt.Println("  error:", e)
	}
	urls := s.GetURLs()
	demo.Expect(len(urls) == 3 && urls[0].Loc == "https://bücher.example/page" && urls[2].Loc == "https://xn--bcher-kva.example/third",
		"3 URLs as written in strict mode")
	demo.Expect(s.GetErrorsCount() == 1, "the relative URL rejected")
}
