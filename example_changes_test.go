package sitemap_test

import (
	"context"
	"fmt"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// Two runs over a sitemap that changed: with OnlyChanges, the second hands
// on what is new, what moved its lastmod, and, last, what is gone.
func ExampleSource_Change() {
	s := sitemap.New().
		SetStore(store.NewMemory()).
		SetIncremental(sitemap.Incremental{OnlyChanges: true, MaxGoneShare: 1})
	const loc = "https://example.com/sitemap.xml"
	before := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/a</loc><lastmod>2026-01-01</lastmod></url>
<url><loc>https://example.com/b</loc></url>
<url><loc>https://example.com/c</loc></url>
</urlset>`
	after := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/a</loc><lastmod>2026-02-01</lastmod></url>
<url><loc>https://example.com/c</loc></url>
<url><loc>https://example.com/d</loc></url>
</urlset>`
	s.ParseContext(context.Background(), loc, &before)
	s.ParseContext(context.Background(), loc, &after)
	for _, u := range s.GetURLs() {
		fmt.Println(u.Source.Change(), u.Loc, "from", u.Source.URL())
	}
	fmt.Printf("%+v\n", *s.GetDocuments()[0].Changes)
	// Output:
	// lastmod https://example.com/a from https://example.com/sitemap.xml
	// new https://example.com/d from https://example.com/sitemap.xml
	// gone https://example.com/b from https://example.com/sitemap.xml
	// {New:1 LastMod:1 Gone:1 Unchanged:1 Unknown:0}
}

// A selection in code: only the sitemaps of products, and only the pages
// in stock.
func ExampleSelection() {
	s := sitemap.New().SetSelection(sitemap.Selection{
		FollowSitemap: func(d sitemap.Document) bool { return d.Depth == 1 && len(d.URL) > 0 },
		KeepURL:       func(u sitemap.URL) bool { return u.Priority == nil || *u.Priority >= 0.5 },
	})
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/in-stock</loc><priority>0.8</priority></url>
<url><loc>https://example.com/sold-out</loc><priority>0.1</priority></url>
</urlset>`
	s.ParseContext(context.Background(), "https://example.com/sitemap.xml", &doc)
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// Output:
	// https://example.com/in-stock
}
