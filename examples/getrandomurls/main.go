// GetRandomURLs picks URLs at random, none twice: a sample of a site's
// pages, to check or to crawl first.
package main

import (
	"fmt"
	"log"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "<url><loc>https://example.com/page-%d</loc></url>", i)
	}
	b.WriteString("</urlset>")
	content := b.String()

	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}

	sample := s.GetRandomURLs(3)
	seen := map[string]bool{}
	for _, u := range sample {
		fmt.Println(u.Loc) // a different three on every run
		seen[u.Loc] = true
	}
	demo.Expect(len(sample) == 3 && len(seen) == 3, "3 different URLs")

	// The URLs are copies, the caller's own: they may be changed.
	sample[0].Loc = "changed"
	for _, u := range s.GetURLs() {
		demo.Expect(u.Loc != "changed", "the instance's URLs unchanged")
	}

	// More than there are: all of them, in random order; none: an empty slice.
	fmt.Println(len(s.GetRandomURLs(100)), "of", s.GetURLCount(), "and", len(s.GetRandomURLs(0)))
	demo.Expect(len(s.GetRandomURLs(100)) == 10 && len(s.GetRandomURLs(0)) == 0, "10 and 0")
}
