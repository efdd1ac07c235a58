// Encoding reads XML sitemaps in encodings other than UTF-8: the document
// is transcoded as its XML declaration says, so every string returned is
// UTF-8. A UTF-8 byte order mark at the start of a document is dropped.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	// "\xe9" is the letter "é" in ISO-8859-1.
	latin1 := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" +
		"  <url><loc>https://example.com/caf\xe9</loc></url>\n" +
		"</urlset>"
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &latin1)
	if err != nil {
		log.Fatal(err)
	}
	// The é is UTF-8 now, and percent-encoded in the URL as its two bytes.
	fmt.Println("ISO-8859-1:", s.GetURLs()[0].Loc)
	demo.Expect(s.GetURLs()[0].Loc == "https://example.com/caf%C3%A9", "https://example.com/caf%C3%A9")

	// "\x80" is the euro sign in windows-1252.
	cp1252 := "<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n" +
		"        xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n" +
		"  <url><loc>https://example.com/offer</loc>\n" +
		"    <image:image><image:loc>https://example.com/offer.jpg</image:loc>\n" +
		"      <image:title>Only 20 \x80</image:title></image:image></url>\n" +
		"</urlset>"
	s, err = sitemap.New().Parse("https://example.com/sitemap.xml", &cp1252)
	if err != nil {
		log.Fatal(err)
	}
	title := s.GetURLs()[0].Images[0].Title
	fmt.Println("windows-1252:", title)
	demo.Expect(title == "Only 20 €", "the euro sign in UTF-8")

	// A text sitemap with a byte order mark: the first line is a URL.
	withBOM := "\xef\xbb\xbfhttps://example.com/\nhttps://example.com/about\n"
	s, err = sitemap.New().Parse("https://example.com/sitemap.txt", &withBOM)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("with a BOM:", s.GetURLCount(), "URLs, the first", s.GetURLs()[0].Loc)
	demo.Expect(s.GetURLCount() == 2, "both lines, the first one included")
}
