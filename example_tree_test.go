package sitemap_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/gositemap/sitemap"
)

// A crawler's frontier that fetches every document itself hands the bytes
// to ParseReader, and with Selection.RootOnly nothing is fetched: it gets the
// document's URLs, the child sitemaps it lists, and their lastmod, to
// schedule them itself.
func ExampleS_ParseReader() {
	fetched := []byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-products.xml</loc><lastmod>2024-03-01</lastmod></sitemap>
  <sitemap><loc>/sitemap-blog.xml</loc></sitemap>
</sitemapindex>`)
	s, err := sitemap.New().SetSelection(sitemap.Selection{RootOnly: true}).
		ParseReader(context.Background(), "https://example.com/sitemap-index.xml", bytes.NewReader(fetched))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sm := range s.GetSitemaps() {
		date := "no lastmod"
		if sm.LastMod != nil {
			date = sm.LastMod.Format("2006-01-02")
		}
		fmt.Println(sm.Loc, date)
	}
	// Output:
	// https://example.com/sitemap-products.xml 2024-03-01
	// https://example.com/sitemap-blog.xml no lastmod
}

// StreamReader hands each URL of a reader to the loop as it is read; each
// tells the sitemap it came from.
func ExampleS_StreamReader() {
	body := strings.NewReader("https://example.com/a\nhttps://example.com/b\n")
	for u, err := range sitemap.New().StreamReader(context.Background(), "https://example.com/sitemap.txt", body) {
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(u.Loc, "from", u.Source.URL())
	}
	// Output:
	// https://example.com/a from https://example.com/sitemap.txt
	// https://example.com/b from https://example.com/sitemap.txt
}

// Every URL can tell which sitemap listed it.
func ExampleSource() {
	srv := serveDocs(nil, map[string]string{
		"/index.xml":    index("/products.xml", "/blog.xml"),
		"/products.xml": urlset("https://example.com/teapot"),
		"/blog.xml":     urlset("https://example.com/blog/hello"),
	})
	defer srv.Close()
	s, _ := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/index.xml", nil)
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc, "<-", exampleHost(srv, u.Source.URL()))
	}
	// Output:
	// https://example.com/teapot <- https://example.com/products.xml
	// https://example.com/blog/hello <- https://example.com/blog.xml
}

// GetDocuments is the tree of a call: every document it came to know of,
// how it was found, and what became of it.
func ExampleS_GetDocuments() {
	srv := serveDocs(nil, map[string]string{
		"/robots.txt":   "Sitemap: /index.xml\n",
		"/index.xml":    index("/products.xml", "/gone.xml"),
		"/products.xml": urlset("https://example.com/teapot", "https://example.com/kettle"),
	})
	defer srv.Close()
	s, _ := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/robots.txt", nil)
	for _, d := range s.GetDocuments() {
		fmt.Printf("%s%s %s (%s, %s): %d URLs, %d errors\n", strings.Repeat("  ", d.Depth),
			strings.TrimPrefix(d.URL, srv.URL), d.Status, d.Found, d.Format, d.URLs, d.Errors)
	}
	// Output:
	// /robots.txt parsed (root, robots): 0 URLs, 0 errors
	//   /index.xml parsed (robots, index): 0 URLs, 0 errors
	//     /products.xml parsed (index, urlset): 2 URLs, 0 errors
	//     /gone.xml failed (index, ): 0 URLs, 1 errors
}

// Selection.RootOnly fetches the URL given and lists what it names,
// nothing more.
func ExampleS_SetSelection() {
	srv := serveDocs(nil, map[string]string{
		"/robots.txt": "Sitemap: /a.xml\nSitemap: /b.xml\n",
		"/a.xml":      urlset("https://example.com/a"),
	})
	defer srv.Close()
	s, _ := sitemap.New().SetSelection(sitemap.Selection{RootOnly: true}).Parse(srv.URL+"/robots.txt", nil)
	for _, d := range s.GetDocuments()[1:] {
		fmt.Println(strings.TrimPrefix(d.URL, srv.URL), d.Status)
	}
	fmt.Println(s.GetURLCount(), "URLs")
	// Output:
	// /a.xml not-followed
	// /b.xml not-followed
	// 0 URLs
}

// URL tells the sitemap a URL was read from, as it was requested; the zero
// Source, of a URL made by hand, tells "".
func ExampleSource_URL() {
	body := strings.NewReader("https://example.com/a\n")
	s, _ := sitemap.New().ParseReader(context.Background(), "https://example.com/sitemap.txt", body)
	for _, u := range s.GetURLs() {
		fmt.Printf("%s from %q\n", u.Loc, u.Source.URL())
	}
	var handmade sitemap.URL
	fmt.Printf("%q\n", handmade.Source.URL())
	// Output:
	// https://example.com/a from "https://example.com/sitemap.txt"
	// ""
}
