package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// A streaming call shares nothing between the URLs it hands on: each is the
// loop's own, and changing a value through one of its pointers changes no
// other URL.
func TestStreamSharesNothing(t *testing.T) {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/a</loc><lastmod>2024-01-15</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>
<url><loc>https://example.com/b</loc><lastmod>2024-01-15</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>
</urlset>`
	var urls []sitemap.URL
	for u, err := range sitemap.New().Stream(context.Background(), "https://example.com/sitemap.xml", &content) {
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, u)
	}
	if len(urls) != 2 || urls[0].LastMod == nil || urls[0].ChangeFreq == nil || urls[0].Priority == nil {
		t.Fatalf("%+v", urls)
	}
	*urls[0].LastMod = sitemap.LastModTime{}
	*urls[0].ChangeFreq = sitemap.ChangeFreqNever
	*urls[0].Priority = 1
	b := urls[1]
	if !b.LastMod.Equal(time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)) || *b.ChangeFreq != sitemap.ChangeFreqDaily || *b.Priority != 0.5 {
		t.Errorf("changing the first URL streamed changed the second: %v %v %v", b.LastMod, *b.ChangeFreq, *b.Priority)
	}

	// Parse, which keeps the URLs, shares the values.
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		t.Fatal(err)
	}
	kept := s.GetURLs()
	if kept[0].LastMod != kept[1].LastMod || kept[0].ChangeFreq != kept[1].ChangeFreq || kept[0].Priority != kept[1].Priority {
		t.Error("the URLs Parse keeps do not share the values they have in common")
	}
}

// A call that reads one small document allocates in proportion to it: the
// tree of the call, the slabs of dates and priorities, the arena of its
// strings and its first chunk of URLs start small and grow with what they
// hold (issue 19). A document of ten URLs cost over 100 KiB before, half of
// it a block of 256 records for the tree; plain or gzipped, it now costs
// less than 32 KiB.
func TestSmallDocumentAllocatesLittle(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled buffers at random, which are then allocated again")
	}
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 10 {
		fmt.Fprintf(&b, "<url><loc>https://example.com/p/%d</loc><lastmod>2024-01-%02dT10:00:00Z</lastmod><changefreq>daily</changefreq><priority>0.%d</priority></url>\n", i, 1+i, i)
	}
	b.WriteString(`</urlset>`)
	plain := b.String()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(plain))
	zw.Close()
	packed := gz.String()
	for _, tc := range []struct{ name, url, content string }{
		{"plain", "https://example.com/sitemap.xml", plain},
		{"gzipped", "https://example.com/sitemap.xml.gz", packed},
	} {
		parse := func() {
			s, err := sitemap.New().Parse(tc.url, &tc.content)
			if err != nil || s.GetURLCount() != 10 {
				t.Fatalf("%s: %v, %d URLs", tc.name, err, s.GetURLCount())
			}
		}
		parse() // the pools of buffers filled
		const runs = 50
		before := allocated()
		for range runs {
			parse()
		}
		per := (allocated() - before) / runs
		t.Logf("%s: %d bytes a call", tc.name, per)
		if per > 32<<10 {
			t.Errorf("%s: %d bytes allocated a call, want at most %d", tc.name, per, 32<<10)
		}
	}
}
