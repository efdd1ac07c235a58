// Package bench is the yardstick of the sitemap library's speed (issue 19):
// deterministic workloads generated in code, a frozen reference extractor
// written on github.com/orisano/gosax, and, in its tests, the benchmarks
// that run the library, the references and the floors side by side in one
// process. It is a module of its own so that the library's go.mod never
// gains gosax. See README.md for how to run it and what each figure means.
package bench

import (
	"bytes"
	"compress/gzip"
	"fmt"
)

// The sizes of the workloads. The urlsets keep the shapes of the library's
// own bench_scale_test.go, so that the figures of both compare.
const (
	// URLSetURLs is how many URLs W1 and W2 list: as many as the
	// sitemaps.org protocol allows in one sitemap.
	URLSetURLs = 50_000
	// RSSItems is how many items the RSS workload has.
	RSSItems = 10_000
	// TextLines is how many lines the text workload has.
	TextLines = 50_000
	// W3Children is how many sitemaps the W3 index lists.
	W3Children = 200
	// W3PerChild is how many URLs each sitemap of W3 lists.
	W3PerChild = 5_000
	// W2Images is how many images W2 lists in all: 2 to 5 a URL.
	W2Images = 175_000
)

// W1 returns a urlset of [URLSetURLs] URLs with lastmod, changefreq and
// priority, about 10.4 MB. One loc in 7 carries a query with an &amp;, one
// in 11 is written as CDATA.
func W1() []byte { return URLSet(URLSetURLs, 0) }

// W2 returns W1's URLs each with 2 to 5 images (loc, title and caption),
// about 51 MB, under the 50 MiB that a sitemap may hold. The first image of
// each URL has its title written as CDATA holding a bare & and a caption
// holding an &amp;.
func W2() []byte { return URLSet(URLSetURLs, -1) }

// W3Child returns the urlset that every sitemap of W3 serves: W1's shape
// with [W3PerChild] URLs.
func W3Child() []byte { return URLSet(W3PerChild, 0) }

// URLSet returns a urlset of n URLs in the shape of [W1], with images
// images a URL, or 2 to 5 when images is negative. The same arguments give
// the same bytes.
func URLSet(n, images int) []byte {
	var b bytes.Buffer
	b.Grow(n * (210 + max(images, 3)*200))
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	freqs := []string{"daily", "weekly", "monthly", "hourly"}
	for i := range n {
		loc := fmt.Sprintf("https://www.example.com/products/category-%d/item-%d.html", i%97, i)
		switch {
		case i%7 == 3:
			loc += fmt.Sprintf("?ref=feed&amp;page=%d", i%5)
		case i%11 == 5:
			loc = "<![CDATA[" + loc + "]]>"
		}
		fmt.Fprintf(&b, "  <url>\n    <loc>%s</loc>\n", loc)
		fmt.Fprintf(&b, "    <lastmod>2024-%02d-%02dT%02d:%02d:00+00:00</lastmod>\n", 1+i%12, 1+i%28, i%24, i%60)
		fmt.Fprintf(&b, "    <changefreq>%s</changefreq>\n    <priority>0.%d</priority>\n", freqs[i%4], 1+i%9)
		k := images
		if k < 0 {
			k = 2 + i%4
		}
		for j := range k {
			fmt.Fprintf(&b, "   <image:image>\n    <image:loc>https://cdn.www.example.com/images/products/%d/photo-%d.jpg</image:loc>\n", i, j)
			if j == 0 {
				fmt.Fprintf(&b, "    <image:title><![CDATA[View %d & more]]></image:title>\n", j)
				fmt.Fprintf(&b, "    <image:caption>Product %d from angle %d &amp; above.</image:caption>\n   </image:image>\n", i, j)
			} else {
				fmt.Fprintf(&b, "    <image:title>View %d</image:title>\n", j)
				fmt.Fprintf(&b, "    <image:caption>Product %d from angle %d.</image:caption>\n   </image:image>\n", i, j)
			}
		}
		b.WriteString("  </url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// RSS returns an RSS 2.0 feed of [RSSItems] items, each with a title, a
// link, a pubDate and a description written as CDATA; one link in 7
// carries a query with an &amp;. About 2.6 MB.
func RSS() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><link>https://www.example.com/</link>` + "\n")
	for i := range RSSItems {
		link := fmt.Sprintf("https://www.example.com/blog/%d/a-post-about-things", i)
		if i%7 == 3 {
			link += fmt.Sprintf("?utm_source=rss&amp;utm_id=%d", i%5)
		}
		fmt.Fprintf(&b, "<item><title>Post number %d</title><link>%s</link><pubDate>Mon, %02d Jan 2024 10:%02d:00 GMT</pubDate><description><![CDATA[<p>Some words about post %d, which are not read.</p>]]></description></item>\n", i, link, 1+i%28, i%60, i)
	}
	b.WriteString("</channel></rss>\n")
	return b.Bytes()
}

// Text returns a text sitemap of [TextLines] URLs, one a line, about 4 MB.
// One URL in 7 carries a query with a bare &.
func Text() []byte {
	var b bytes.Buffer
	for i := range TextLines {
		fmt.Fprintf(&b, "https://www.example.com/products/category-%d/item-%d-with-a-longer-slug.html", i%97, i)
		if i%7 == 3 {
			fmt.Fprintf(&b, "?ref=txt&page=%d", i%5)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// W3Index returns a sitemap index of [W3Children] sitemaps, each a path
// relative to the index's URL with a query holding an &amp;.
func W3Index() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range W3Children {
		fmt.Fprintf(&b, "<sitemap><loc>/sitemap-%d.xml?v=1&amp;part=%d</loc><lastmod>2024-01-15</lastmod></sitemap>\n", i, i)
	}
	b.WriteString("</sitemapindex>\n")
	return b.Bytes()
}

// Gzip returns doc compressed with compress/gzip at its default level. The
// output has no name and no time in its header, so it is the same for the
// same doc.
func Gzip(doc []byte) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	if _, err := z.Write(doc); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	if err := z.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}
