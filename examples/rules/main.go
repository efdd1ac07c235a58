// Rules sets URL rules: regular expressions that decide which URLs are
// kept. They are matched against the URL as GetURLs returns it.
package main

import (
	"fmt"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

const sitemapXML = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
  <url><loc>https://example.com/product/teapot</loc></url>
  <url><loc>https://example.com/product/kettle</loc></url>
  <url><loc>https://example.com/category/tea</loc></url>
  <url><loc>https://example.com/about</loc></url>
</urlset>`

func main() {
	content := sitemapXML
	s, err := sitemap.New().
		SetRules([]string{`product/`, `category/`}). // a URL is kept when one of them matches
		Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// The URLs left out are no errors, and do not count towards SetMaxURLs.
	demo.Expect(s.GetURLCount() == 3 && s.GetErrorsCount() == 0, "3 URLs kept, no error")

	// A pattern that does not compile is a *ConfigError, and the rules stay
	// as they were.
	s.SetRules([]string{`product/(`})
	fmt.Println("rejected:", s.GetErrors()[0])
	fmt.Println("rules:", s.GetRules())
	demo.Expect(len(s.GetRules()) == 2, "the rules as they were")
}
