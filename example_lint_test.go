package sitemap_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gositemap/sitemap"
)

// Lint, given a document at hand as a reader, lists every problem of it,
// each with its code, its severity and its place, and goes on past every
// one of them.
func ExampleS_Lint_reader() {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/shop/a</loc><lastmod>2024-02-30</lastmod></url>
  <url><loc>https://example.com/shop/b?x=1&y=2</loc><priority>high</priority></url>
  <url><loc>https://example.com/shop/a</loc></url>
</urlset>`
	s := sitemap.New()
	o := &sitemap.LintOptions{NoRobots: true}
	for f := range s.Lint(context.Background(), "https://example.com/shop/sitemap.xml", strings.NewReader(doc), o) {
		fmt.Printf("%d:%d %s %s\n", f.Line, f.Column, f.Severity, f.Code)
	}
	// Output:
	// 3:8 error lastmod-invalid
	// 4:43 error xml-syntax
	// 4:8 error priority-invalid
	// 5:8 warning duplicate-loc
}

// Lint, given no reader, fetches the document and reads its tree as Parse
// does, and reports what spans documents: a sitemap index listing an
// index, a URL listed in two sitemaps. The robots.txt of the site names the
// index: without it, the index would have a finding not-in-robots.
func ExampleS_Lint() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/index.xml\n", host)
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/a.xml</loc></sitemap><sitemap><loc>%s/more.xml</loc></sitemap></sitemapindex>`, host, host)
		case "/more.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/b.xml</loc></sitemap></sitemapindex>`, host)
		case "/a.xml", "/b.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/page</loc></url></urlset>`, host)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	s := sitemap.New().SetMultiThread(false)
	for f := range s.Lint(context.Background(), srv.URL+"/index.xml", nil, nil) {
		fmt.Println(f.Severity, f.Code, strings.TrimPrefix(f.Document, srv.URL))
	}
	// Output:
	// error nested-index /more.xml
	// info duplicate-loc /b.xml
}

// A Finding prints as a compiler's message does: the document, the line and
// the column, the severity, the code and the message, and the entry it is
// about.
func ExampleFinding() {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/a</loc><changefreq>sometimes</changefreq></url>
</urlset>`
	o := &sitemap.LintOptions{NoRobots: true}
	for f := range sitemap.New().Lint(context.Background(), "https://example.com/sitemap.xml", strings.NewReader(doc), o) {
		fmt.Println(f)
	}
	// Output:
	// https://example.com/sitemap.xml:2:8: error changefreq-invalid: invalid <changefreq> value "sometimes" (https://example.com/a)
}

// With EachURL set, one call of Lint gives the findings and the URLs both,
// and keeps no URL: the call reads in flat memory, as Stream does, and
// the tree still counts what passed.
func ExampleS_Lint_eachURL() {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/a</loc><lastmod>2024-01-15</lastmod></url>
  <url><loc>https://example.com/b</loc><lastmod>2024-13-01</lastmod></url>
</urlset>`
	s := sitemap.New()
	o := &sitemap.LintOptions{NoRobots: true, EachURL: func(u sitemap.URL) {
		fmt.Println("url", u.Loc, u.LastMod != nil)
	}}
	for f := range s.Lint(context.Background(), "https://example.com/sitemap.xml", strings.NewReader(doc), o) {
		fmt.Println("finding", f.Code)
	}
	fmt.Println("kept:", s.GetURLCount(), "counted in the tree:", s.GetDocuments()[0].URLs)
	// Unordered output:
	// url https://example.com/a true
	// url https://example.com/b false
	// finding lastmod-invalid
	// kept: 0 counted in the tree: 2
}

// Help gives the words of the table of Code: what a code's findings are
// about, and what to do about them.
func ExampleCode_Help() {
	what, todo := sitemap.CodeLocTooLong.Help()
	fmt.Println(what)
	fmt.Println(todo)
	// Output:
	// a <loc> of more than 2,048 characters
	// shorten it
}
