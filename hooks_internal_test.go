package sitemap

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Issue 30 item 3: two features attached to one call each see every hook,
// in the order they were attached, and a URL either leaves out is not
// kept, nor counted.
func TestHooksComposed(t *testing.T) {
	s := New()
	c, err := s.begin(context.Background(), "https://example.com/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer s.parsing.Unlock()
	var log []string
	observer := func(name, drop string) hooks {
		return hooks{
			opened: func(ch child, src source, err error) { log = append(log, name+" opened "+ch.loc) },
			document: func(ch child, level int, d *doc) docHooks {
				log = append(log, name+" document")
				return docHooks{
					xml:   xmlHooks{root: func(f docFormat, space []byte) { log = append(log, name+" root "+string(space)) }},
					entry: func(e *rawEntry) { log = append(log, name+" entry "+string(e.loc.text())) },
					url: func(u URL) (bool, Source) {
						log = append(log, name+" url "+u.Loc)
						return u.Loc != drop, Source{}
					},
					ended: func(st Status, err error) { log = append(log, name+" ended "+string(st)) },
				}
			},
		}
	}
	c.attach(observer("a", ""))
	c.attach(observer("b", "https://example.com/b"))
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`
	if err := c.run(strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a opened https://example.com/sitemap.xml", "b opened https://example.com/sitemap.xml",
		"a document", "b document",
		"a root http://www.sitemaps.org/schemas/sitemap/0.9", "b root http://www.sitemaps.org/schemas/sitemap/0.9",
		"a entry https://example.com/a", "b entry https://example.com/a",
		"a url https://example.com/a", "b url https://example.com/a",
		"a entry https://example.com/b", "b entry https://example.com/b",
		"a url https://example.com/b", "b url https://example.com/b",
		"a ended parsed", "b ended parsed",
	}
	if !slices.Equal(log, want) {
		t.Errorf("hooks fired:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
	if urls := s.GetURLs(); len(urls) != 1 || urls[0].Loc != "https://example.com/a" {
		t.Errorf("URLs kept: %v, want https://example.com/a alone", urls)
	}
	if docs := s.GetDocuments(); len(docs) != 1 || docs[0].URLs != 1 {
		t.Errorf("documents: %+v, want one of 1 URL", docs)
	}
}
