package sitemap_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

// ADOPTED-10 (decision: the elements of the sitemap protocol are those in
// the namespace of the root element, whatever it is; a DOCTYPE is read past,
// its DTD ignored), in both modes.
func TestNamespacesAndDoctype(t *testing.T) {
	tests := []struct {
		name, doc string
		urls      []string
		sitemaps  []string
	}{
		{"urlset without a namespace", `<urlset><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"urlset in another namespace", `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"prefixed root, entries in its namespace", `<s:urlset xmlns:s="urn:x"><s:url><s:loc>https://example.com/a</s:loc></s:url></s:urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"entry in a namespace other than the root's", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url xmlns="urn:other"><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`,
			[]string{"https://example.com/b"}, nil},
		{"location in a namespace other than the root's", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:o="urn:other"><url><o:loc>https://example.com/a</o:loc><loc>https://example.com/b</loc></url></urlset>`,
			[]string{"https://example.com/b"}, nil},
		{"index without a namespace", `<sitemapindex><sitemap><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>`,
			nil, []string{"https://example.com/s.xml"}},
		{"DOCTYPE with an external identifier", `<?xml version="1.0"?><!DOCTYPE urlset PUBLIC "-//x//DTD sitemap//EN" "https://example.com/sitemap.dtd"><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"DOCTYPE with an internal subset", `<?xml version="1.0"?><!DOCTYPE urlset [<!ELEMENT urlset ANY><!ATTLIST url id CDATA "x">]><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
	}
	for _, tt := range tests {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", tt.name, strict), func(t *testing.T) {
				s, tr := offline()
				if _, err := s.SetStrict(strict).SetFollow([]string{`^$`}).Parse("https://example.com/sitemap.xml", &tt.doc); err != nil {
					t.Fatalf("Parse: %v", err)
				}
				equalStrings(t, "URLs", locsOf(s.GetURLs()), tt.urls)
				equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), tt.sitemaps)
				noErrors(t, s)
				if tr.n.Load() != 0 {
					t.Errorf("%d requests", tr.n.Load())
				}
			})
		}
	}
}

// ADOPTED-9: nothing a DTD names is loaded: neither the external DTD, nor
// an external entity, nor an external parameter entity, in either mode; an
// entity the document uses is not replaced by what such a resource holds.
func TestNoExternalResources(t *testing.T) {
	srv := newServer(t)
	for _, p := range []string{"/sitemap.dtd", "/ext.txt", "/param.ent"} {
		srv.Doc(p, "INJECTED")
	}
	doc := `<?xml version="1.0"?>
<!DOCTYPE urlset SYSTEM "` + srv.At("/sitemap.dtd") + `" [
  <!ENTITY ext SYSTEM "` + srv.At("/ext.txt") + `">
  <!ENTITY % param SYSTEM "` + srv.At("/param.ent") + `">
  %param;
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/plain</loc></url>
  <url><loc>https://example.com/&ext;</loc></url>
</urlset>`
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &doc)
		if srv.Total() != 0 {
			t.Fatalf("strict=%v: requested %q", strict, srv.Log())
		}
		for _, u := range s.GetURLs() {
			if strings.Contains(u.Loc, "INJECTED") {
				t.Errorf("strict=%v: an external entity was expanded into %s", strict, u.Loc)
			}
		}
		if !strict && (err != nil || !slices.Contains(locsOf(s.GetURLs()), "https://example.com/plain")) {
			t.Errorf("tolerant: err %v, URLs %q: the document is read, its DTD ignored", err, locsOf(s.GetURLs()))
		}
	}
}

// TestModesTolerantXML reads past the XML mistakes of TOLERANT-10, which
// strict mode rejects whole (STRICT-13).
func TestModesTolerantXML(t *testing.T) {
	const base = "https://example.com/sitemap.xml"
	cases := map[string]struct {
		doc  string
		want []string
	}{
		"unescaped ampersand": {urlset("https://example.com/?a=1&b=2"), []string{"https://example.com/?a=1&b=2"}},
		"html entity":         {urlset("https://example.com/a&nbsp;b"), []string{"https://example.com/a%C2%A0b"}},
		"missing url end tag": {`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/1</loc><url><loc>https://example.com/2</loc></url></urlset>`,
			[]string{"https://example.com/1", "https://example.com/2"}},
		"missing end tag of the last url": {`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></urlset>`,
			[]string{"https://example.com/1", "https://example.com/2"}},
		// A missing root end tag is a cut, its entries kept and reported:
		// see TestHostileDocumentCutBetweenEntries.
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			locs, errs := parseModes(t, false, base, tc.doc)
			if strings.Join(locs, " ") != strings.Join(tc.want, " ") {
				t.Errorf("tolerant: got %q (errors %q), want %q", locs, errs, tc.want)
			}
			s, err := sitemap.New().SetStrict(true).Parse(base, &tc.doc)
			var pe *sitemap.ParseError
			if !errors.As(err, &pe) || s.GetURLCount() != 0 {
				t.Errorf("strict: got %v and %d URLs, want a *ParseError and none", err, s.GetURLCount())
			}
		})
	}
}

// TestModesTolerantLinkElements is the regression test of an AutoClose list
// that closed every <link> at once: RSS links and xhtml:link elements with
// content were rejected in tolerant mode.
func TestModesTolerantLinkElements(t *testing.T) {
	rss := `<rss version="2.0"><channel><item><link>https://example.com/post</link></item></channel></rss>`
	hreflang := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
	  <url><loc>https://example.com/en</loc>
	    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de">
	    </xhtml:link>
	  </url></urlset>`
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/feed.xml", &rss)
		if err != nil || s.GetURLCount() != 1 {
			t.Errorf("strict=%v: RSS: %v, %d URLs", strict, err, s.GetURLCount())
		}
		s, err = sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &hreflang)
		if err != nil || s.GetURLCount() != 1 || len(s.GetURLs()[0].Hreflangs) != 1 {
			t.Errorf("strict=%v: xhtml:link: %v, %d URLs", strict, err, s.GetURLCount())
		}
	}
}
