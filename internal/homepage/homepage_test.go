package homepage

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func scan(t *testing.T, page string) Page {
	t.Helper()
	base, _ := url.Parse("https://example.com/")
	return Scan(strings.NewReader(page), base, "https://example.com/")
}

// The sitemaps and feeds of the head, in order, resolved; nothing else,
// and nothing past the head (issue 17).
func TestScanLinks(t *testing.T) {
	page := scan(t, `<!doctype html><html><head>
<link rel="stylesheet" href="/style.css">
<link rel="Sitemap" type="application/xml" href="/maps/site.xml">
<link rel="alternate" type="application/rss+xml" href="/feed.rss">
<link rel="alternate" type="application/atom+xml; charset=utf-8" href="feed.atom">
<link rel="alternate" hreflang="fr" href="/fr/">
<link rel="sitemap" href="   ">
</head><body><link rel="sitemap" href="/after-head.xml"></body></html>`)
	want := []Link{
		{"https://example.com/maps/site.xml", false},
		{"https://example.com/feed.rss", true},
		{"https://example.com/feed.atom", true},
	}
	if fmt.Sprint(page.Links) != fmt.Sprint(want) {
		t.Fatalf("links %v, want %v", page.Links, want)
	}
}

// The first <base href> is what the links are resolved against; one that
// is no HTTP(S) URL is passed over.
func TestScanBase(t *testing.T) {
	page := scan(t, `<html><head><base href="ftp://x/"><base href="/blog/"><base href="/other/"><link rel="sitemap" href="maps.xml"></head></html>`)
	if page.BaseStr != "https://example.com/blog/" || len(page.Links) != 1 || page.Links[0].URL != "https://example.com/blog/maps.xml" {
		t.Fatalf("base %s, links %v", page.BaseStr, page.Links)
	}
}

// A <body> ends the head as </head> does, and no more than MaxLinks links
// are taken (hostile: a page of 100,000 links).
func TestScanBounds(t *testing.T) {
	if page := scan(t, `<html><body><link rel="sitemap" href="/x.xml">`); len(page.Links) != 0 {
		t.Fatalf("links after <body>: %v", page.Links)
	}
	var b strings.Builder
	b.WriteString("<html><head>")
	for i := range 100000 {
		fmt.Fprintf(&b, `<link rel="sitemap" href="/s%d.xml">`, i)
	}
	page := scan(t, b.String())
	if len(page.Links) != MaxLinks || page.Links[MaxLinks-1].URL != fmt.Sprintf("https://example.com/s%d.xml", MaxLinks-1) {
		t.Fatalf("%d links", len(page.Links))
	}
}

// Hostile: a page whose head never ends is read no further than MaxBytes.
func TestScanHugeHead(t *testing.T) {
	r := &countingReader{r: strings.NewReader("<html><head><title>" + strings.Repeat("a", 4*MaxBytes) + `</title><link rel="sitemap" href="/late.xml"></head>`)}
	base, _ := url.Parse("https://example.com/")
	page := Scan(r, base, "https://example.com/")
	if len(page.Links) != 0 || r.n > MaxBytes {
		t.Fatalf("read %d bytes, links %v", r.n, page.Links)
	}
}

type countingReader struct {
	r *strings.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
