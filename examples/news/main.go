// News reads the Google News extension: the <news:news> element of a
// page, in URL.News.
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url>
    <loc>https://example.com/news/spring-sale</loc>
    <news:news>
      <news:publication>
        <news:name>The Example Times</news:name>
        <news:language>en</news:language>
      </news:publication>
      <news:publication_date>2024-03-10T09:30:00+01:00</news:publication_date>
      <news:title>Spring sale: every teapot 20% off</news:title>
    </news:news>
  </url>
  <url>
    <loc>https://example.com/about</loc>
  </url>
</urlset>`

func main() {
	content := sitemapXML
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		if u.News == nil {
			fmt.Println(u.Loc, "is no news article")
			continue
		}
		n := u.News
		fmt.Println(u.Loc)
		fmt.Printf("  %q in %s (%s), published %s\n", n.Title, n.Publication.Name, n.Publication.Language,
			n.PublicationDate.Format(time.RFC1123Z))
	}
	n := s.GetURLs()[0].News
	demo.Expect(n != nil && n.Publication.Name == "The Example Times" && n.PublicationDate != nil &&
		n.PublicationDate.Equal(time.Date(2024, 3, 10, 8, 30, 0, 0, time.UTC)), "the news of the first page")
}
