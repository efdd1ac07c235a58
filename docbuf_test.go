package sitemap_test

import (
	"context"
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
