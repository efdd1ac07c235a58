// Iterators walks the URLs and the errors of a call with URLs() and
// Errors(). The URLs they yield are copies that are the caller's own, so
// they may be changed and sorted; GetURLs returns the list the instance
// keeps, which must not be.
package main

import (
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/b</loc><priority>0.5</priority></url>
  <url><loc>https://example.com/c</loc><priority>0.5</priority></url>
  <url><loc>ftp://example.com/file</loc></url>
  <url><loc>https://example.com/a</loc><priority>0.5</priority></url>
</urlset>`

func main() {
	content := sitemapXML
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}

	// A loop over copies: what it changes stays in the loop.
	for u := range s.URLs() {
		*u.Priority = 1
		fmt.Println(u.Loc, *u.Priority)
	}
	fmt.Println("kept by the instance:", *s.GetURLs()[0].Priority)
	demo.Expect(*s.GetURLs()[0].Priority == 0.5, "the instance's URLs unchanged")

	// Collected into a list of one's own, given its capacity, and sorted.
	urls := slices.AppendSeq(make([]sitemap.URL, 0, s.GetURLCount()), s.URLs())
	slices.SortFunc(urls, func(a, b sitemap.URL) int { return strings.Compare(a.Loc, b.Loc) })
	fmt.Println("sorted:", urls[0].Loc, urls[1].Loc, urls[2].Loc)
	fmt.Println("as listed:", s.GetURLs()[0].Loc)
	demo.Expect(urls[0].Loc == "https://example.com/a" && s.GetURLs()[0].Loc == "https://example.com/b",
		"a sorted copy, the instance's order unchanged")

	// The errors: the very values the instance keeps.
	for err := range s.Errors() {
		fmt.Println("error:", err)
	}
	demo.Expect(len(slices.Collect(s.Errors())) == 1, "1 error")
}
