// Atom reads an Atom 1.0 feed: of every <entry>, the first <link> with
// rel="alternate" or without a rel is the page, and <updated> its LastMod.
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const feed = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example blog</title>
  <id>urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6</id>
  <updated>2024-03-10T08:30:00Z</updated>
  <link rel="self" href="https://example.com/blog/feed.atom"/>
  <entry>
    <title>Spring sale</title>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <link rel="self" href="https://example.com/blog/spring-sale.atom"/>
    <link rel="alternate" href="https://example.com/blog/spring-sale"/>
    <updated>2024-03-10T08:30:00Z</updated>
    <published>2024-03-01T08:00:00Z</published>
  </entry>
  <entry>
    <title>How to brew green tea</title>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6b</id>
    <link href="/blog/brewing"/>
    <updated>2024-01-05T11:00:00Z</updated>
  </entry>
  <entry>
    <title>An entry without a link is skipped, without an error</title>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6c</id>
    <updated>2024-01-01T00:00:00Z</updated>
  </entry>
</feed>`

func main() {
	content := feed
	s, err := sitemap.New().Parse("https://example.com/blog/feed.atom", &content)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		// <updated> is the date; <published> is not read.
		fmt.Println(u.Loc, u.LastMod.Format(time.RFC3339))
	}

	urls := s.GetURLs()
	demo.Expect(len(urls) == 2 && s.GetErrorsCount() == 0, "2 pages and no error")
	demo.Expect(urls[0].Loc == "https://example.com/blog/spring-sale", "the alternate link, not the self link")
	demo.Expect(urls[1].Loc == "https://example.com/blog/brewing", "a relative link resolved against the feed")
	demo.Expect(urls[0].LastMod.Equal(time.Date(2024, 3, 10, 8, 30, 0, 0, time.UTC)), "<updated> as LastMod")
}
