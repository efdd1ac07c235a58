// Strict shows what strict mode requires of a URL, and of the images, the
// videos and the alternate links of an entry. What it rejects is reported
// in GetErrors; a page is kept when only one of its images, videos or links
// is left out.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.com/page</loc>
    <priority>0.5</priority>
    <image:image><image:loc>https://cdn.example.com/summer sale.jpg</image:loc></image:image>
    <image:image><image:loc>https://cdn.example.com/summer%20sale.jpg</image:loc></image:image>
    <video:video>
      <video:thumbnail_loc>https://cdn.example.com/thumb.jpg</video:thumbnail_loc>
      <video:content_loc>ftp://cdn.example.com/video.mp4</video:content_loc>
    </video:video>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
    <xhtml:link rel="canonical" hreflang="en" href="https://example.com/en/page"/>
  </url>
  <url><loc>https://example.com/search?tags=summer|sale</loc></url>
  <url><loc>https://www.example.com/page</loc></url>
  <url><loc>https://example.com:8443/page</loc></url>
  <url><loc>https://example.com/weekly</loc><changefreq>Weekly</changefreq></url>
  <url><loc>https://example.com/top</loc><priority>1.5</priority></url>
</urlset>`

func main() {
	content := sitemapXML
	s, err := sitemap.New().SetStrict(true).Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		fmt.Printf("URL: %s (%d image, %d video, %d link)\n", u.Loc, len(u.Images), len(u.Videos), len(u.Hreflangs))
	}
	for _, e := range s.GetErrors() {
		fmt.Println("error:", e)
	}

	urls := s.GetURLs()
	demo.Expect(len(urls) == 1, "one page kept")
	u := urls[0]
	demo.Expect(len(u.Images) == 1 && u.Images[0].Loc == "https://cdn.example.com/summer%20sale.jpg", "the encoded image kept")
	demo.Expect(len(u.Videos) == 1 && u.Videos[0].ContentLoc == "ftp://cdn.example.com/video.mp4",
		"the video kept, with its content URL as written")
	demo.Expect(len(u.Hreflangs) == 1 && u.Hreflangs[0].Hreflang == "de", "the alternate link kept")
	// The image with a space; the video's title, description and content
	// URL; the canonical link; then one error for each page left out.
	demo.Expect(s.GetErrorsCount() == 10, "10 errors")
}
