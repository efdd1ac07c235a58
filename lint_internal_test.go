package sitemap

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Past the cap of a set of the checks across documents, one lint-capped
// finding says that its check stopped, and the check invents nothing.
func TestLintSetCaps(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`)
	for i := range 8 {
		fmt.Fprintf(&b, `<url><loc>https://example.com/%d</loc><xhtml:link rel="alternate" hreflang="en" href="https://example.com/%d"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/%d"/></url>`, i, i, i)
	}
	// A duplicate past the cap is not found: the set no longer grows.
	b.WriteString(`<url><loc>https://example.com/7</loc></url></urlset>`)
	count := map[Code]int{}
	for f := range New().Lint(context.Background(), "https://example.com/sitemap.xml", strings.NewReader(b.String()), &LintOptions{NoRobots: true, MaxLocs: 5, MaxHreflangs: 3}) {
		count[f.Code]++
	}
	if count[CodeLintCapped] != 2 || count[CodeDuplicateLoc] != 0 || count[CodeHreflangReturn] != 0 {
		t.Errorf("findings by code: %v; want 2 lint-capped and nothing else across documents", count)
	}
}
