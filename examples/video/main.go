// Video reads the Google video extension: the <video:video> elements of a
// page, in URL.Videos.
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
  <url>
    <loc>https://example.com/videos/brewing</loc>
    <video:video>
      <video:thumbnail_loc>https://cdn.example.com/brewing.jpg</video:thumbnail_loc>
      <video:title>How to brew green tea</video:title>
      <video:description>Water temperature, steeping time and the right pot.</video:description>
      <video:content_loc>https://cdn.example.com/brewing.mp4</video:content_loc>
      <video:player_loc>https://example.com/player?video=brewing</video:player_loc>
      <video:duration>320</video:duration>
      <video:expiration_date>2030-12-31T23:59:59Z</video:expiration_date>
      <video:rating>4.5</video:rating>
      <video:view_count>12345</video:view_count>
      <video:publication_date>2024-01-05T11:00:00Z</video:publication_date>
      <video:family_friendly>yes</video:family_friendly>
      <video:restriction relationship="allow">DE AT CH</video:restriction>
      <video:platform relationship="deny">tv</video:platform>
      <video:requires_subscription>no</video:requires_subscription>
      <video:uploader info="https://example.com/about/tea-team">The tea team</video:uploader>
      <video:live>no</video:live>
      <video:tag>tea</video:tag>
      <video:tag>brewing</video:tag>
    </video:video>
  </url>
</urlset>`

func main() {
	content := sitemapXML
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	u := s.GetURLs()[0]
	v := u.Videos[0]
	fmt.Println(u.Loc)
	fmt.Printf("  %q: %s\n", v.Title, v.Description)
	fmt.Println("  thumbnail:", v.ThumbnailLoc)
	fmt.Println("  file:     ", v.ContentLoc)
	fmt.Println("  player:   ", v.PlayerLoc)
	// The numbers and the dates are pointers: nil when the document gives
	// none, or one that cannot be parsed.
	fmt.Printf("  %d seconds, rated %.1f, %d views\n", *v.Duration, *v.Rating, *v.ViewCount)
	fmt.Println("  published", v.PublicationDate.Format(time.DateOnly), "until", v.ExpirationDate.Format(time.DateOnly))
	fmt.Println("  shown in:", v.Restriction.Relationship, v.Restriction.Value, "| platforms:", v.Platform.Relationship, v.Platform.Value)
	fmt.Println("  by", v.Uploader.Value, "("+v.Uploader.Info+")")
	fmt.Println("  family friendly:", v.FamilyFriendly, "| subscription:", v.RequiresSubscription, "| live:", v.Live)
	fmt.Println("  tags:", v.Tags)

	demo.Expect(*v.Duration == 320 && *v.Rating == 4.5 && *v.ViewCount == 12345 && len(v.Tags) == 2 &&
		v.Restriction.Value == "DE AT CH" && v.Uploader.Info == "https://example.com/about/tea-team", "every field read")
}
