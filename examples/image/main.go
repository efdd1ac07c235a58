// Image reads the Google image extension: the <image:image> elements of a
// page, in URL.Images.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/products/teapot</loc>
    <image:image>
      <image:loc>https://cdn.example.com/teapot.jpg</image:loc>
      <image:title>Cast-iron teapot</image:title>
      <image:caption>The teapot, filled with green tea</image:caption>
      <image:geo_location>Kyoto, Japan</image:geo_location>
      <image:license>https://example.com/image-license</image:license>
    </image:image>
    <image:image>
      <image:loc>https://cdn.example.com/teapot-side.jpg</image:loc>
    </image:image>
    <image:image>
      <image:title>An image without a location is left out</image:title>
    </image:image>
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
	for _, im := range u.Images {
		fmt.Printf("  %s\n    title %q, caption %q, geo location %q, license %q\n",
			im.Loc, im.Title, im.Caption, im.GeoLocation, im.License)
	}
	demo.Expect(len(u.Images) == 2 && u.Images[0].Title == "Cast-iron teapot" && u.Images[1].Title == "",
		"2 images, the first with its title")
}
