// RSS reads an RSS 2.0 feed: the <link> of every <item> is a page, and the
// item's <pubDate> is its LastMod.
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const feed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Example blog</title>
    <link>https://example.com/blog/</link>
    <pubDate>Sun, 10 Mar 2024 09:30:00 GMT</pubDate>
    <item>
      <title>Spring sale</title>
      <link>https://example.com/blog/spring-sale</link>
      <pubDate>Sun, 10 Mar 2024 08:30:00 GMT</pubDate>
    </item>
    <item>
      <title>How to brew green tea</title>
      <link>https://example.com/blog/brewing</link>
      <pubDate>Fri, 5 Jan 2024 12:00 +0100</pubDate>
    </item>
    <item>
      <title>An item without a link is skipped, without an error</title>
    </item>
  </channel>
</rss>`

func main() {
	// The content is passed in: nothing is fetched, and the feed is located
	// at the URL given. The format is told by the content.
	content := feed
	s, err := sitemap.New().Parse("https://example.com/blog/feed.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc, u.LastMod.UTC().Format(time.RFC3339))
	}

	// The channel's own <link> and <pubDate> are no page and no date of one.
	urls := s.GetURLs()
	demo.Expect(len(urls) == 2 && s.GetErrorsCount() == 0, "2 pages and no error")
	demo.Expect(urls[1].LastMod != nil && urls[1].LastMod.Equal(time.Date(2024, 1, 5, 11, 0, 0, 0, time.UTC)),
		"the date of the second item, without its day of the week and seconds")
}
