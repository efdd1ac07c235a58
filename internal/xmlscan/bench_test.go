package xmlscan

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"testing"
)

// genURLSet returns a urlset of n <url> entries with loc, lastmod,
// changefreq and priority: 50,000 of them make about 10 MB.
func genURLSet(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	freqs := []string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
	for i := range n {
		fmt.Fprintf(&b, "  <url>\n    <loc>https://www.example.com/catalog/category-%d/product-%d.html?ref=sitemap&amp;id=%d</loc>\n", i%97, i, i)
		fmt.Fprintf(&b, "    <lastmod>2024-%02d-%02dT%02d:%02d:00+00:00</lastmod>\n", i%12+1, i%28+1, i%24, i%60)
		fmt.Fprintf(&b, "    <changefreq>%s</changefreq>\n    <priority>0.%d</priority>\n  </url>\n", freqs[i%len(freqs)], i%10)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// genImageSitemap returns a urlset of n <url> entries with 2 to 5
// <image:image> each: 50,000 of them make about 51 MB.
func genImageSitemap(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "  <url>\n    <loc>https://www.example.com/gallery/album-%d/page-%d.html</loc>\n    <lastmod>2024-05-%02d</lastmod>\n", i%211, i, i%28+1)
		for j := range 2 + i%4 {
			fmt.Fprintf(&b, "    <image:image>\n      <image:loc>https://cdn.example.com/images/album-%d/photo-%d-%d.jpg</image:loc>\n", i%211, i, j)
			fmt.Fprintf(&b, "      <image:title>Photo %d of album %d</image:title>\n", j, i)
			fmt.Fprintf(&b, "      <image:caption>Taken by photographer %d &amp; friends</image:caption>\n    </image:image>\n", i%1000)
		}
		b.WriteString("  </url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// The benchmark documents are made on first use, not when the test binary
// starts, so that tests and fuzz workers do not pay for them.
var (
	benchURLSet = sync.OnceValue(func() []byte { return genURLSet(50_000) })
	benchImages = sync.OnceValue(func() []byte { return genImageSitemap(50_000) })
)

// benchTokenize reads doc to its end through the tokenizer newTk makes.
func benchTokenize(b *testing.B, doc []byte, newTk func(io.Reader) tokenizer) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	rd := bytes.NewReader(doc)
	for b.Loop() {
		rd.Reset(doc)
		tk := newTk(rd)
		for {
			if _, err := tk.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

func BenchmarkTokenizeStd(b *testing.B) {
	newTk := func(r io.Reader) tokenizer { return newStdTokenizer(r, true) }
	b.Run("urlset", func(b *testing.B) { benchTokenize(b, benchURLSet(), newTk) })
	b.Run("image", func(b *testing.B) { benchTokenize(b, benchImages(), newTk) })
}

func BenchmarkTokenizeScan(b *testing.B) {
	for _, strict := range []bool{true, false} {
		mode := "strict"
		if !strict {
			mode = "tolerant"
		}
		newTk := func(r io.Reader) tokenizer { return newScanner(r, strict) }
		b.Run("urlset/"+mode, func(b *testing.B) { benchTokenize(b, benchURLSet(), newTk) })
		b.Run("image/"+mode, func(b *testing.B) { benchTokenize(b, benchImages(), newTk) })
	}
}
