package sitemap

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// otherTokenizer hides the scanner behind the tokenizer interface, as a
// tokenizer of another kind would be.
type otherTokenizer struct{ t tokenizer }

func (o otherTokenizer) Next() (*xmlToken, error) { return o.t.Next() }

func TestParseXMLClasses(t *testing.T) {
	// The parse stage tells elements apart by the classes the scanner
	// gives them; a tokenizer that is not the scanner gets them from
	// classified, so that it reads the same entries.
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
		`<url><loc>https://example.com/a</loc><priority>0.5</priority><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url>` +
		`<url xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><loc>https://example.com/b</loc></url></urlset>`
	for _, other := range []bool{false, true} {
		s := New()
		c := newCall(context.Background(), s, s.cfg, fuzzExtBase)
		base, _ := url.Parse(fuzzExtBase)
		d := newDoc(c, base, fuzzExtBase)
		var tk tokenizer = newTokenizer(strings.NewReader(doc), true)
		if other {
			tk = otherTokenizer{tk}
		}
		if err := parseXML(tk, true, d, &xmlHooks{}); err != nil {
			t.Fatal(err)
		}
		urls := slices.Concat(d.buf.urls...)
		if len(urls) != 2 || urls[0].Loc != "https://example.com/a" || len(urls[0].Images) != 1 || urls[1].Loc != "https://example.com/b" {
			t.Fatalf("other tokenizer %v: %+v", other, urls)
		}
	}
}
