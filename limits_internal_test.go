package sitemap

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
)

// A text sitemap that is under way when another sitemap fills the URL
// limit adds nothing, and is no "not a sitemap" either (MAXURLS-5): its
// first URL line stops it, but makes it a text sitemap. Regression test of
// 96badf2; the situation needs two sitemaps in flight, so it is built here
// rather than timed through Parse.
func TestTextSitemapUnderWayAtURLLimit(t *testing.T) {
	s := New().SetMaxURLs(1)
	c := newCall(context.Background(), s, s.cfg, "https://example.com/index.xml")
	if !c.urls.take() || !c.urls.full() {
		t.Fatal("the URL limit of 1 is not full after one URL")
	}
	base, _ := url.Parse("https://example.com/b.txt")
	d := newDoc(c, base, base.String())
	if err := d.parse(strings.NewReader("# pages\nhttps://example.com/b1\nhttps://example.com/b2\n"), false, -1, 0); err != nil {
		t.Fatalf("parse: %v, want no error for a text sitemap that the URL limit stops", err)
	}
	if len(docURLs(d)) != 0 || len(d.errs) != 0 {
		t.Errorf("the document yielded %d URLs and errors %v, want nothing", len(docURLs(d)), d.errs)
	}
	errs := s.GetErrors()
	if len(errs) != 1 || !errors.Is(errs[0], ErrMaxURLs) {
		t.Errorf("errors %v, want the URL limit alone", errs)
	}
}
