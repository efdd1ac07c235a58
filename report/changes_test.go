package report_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/testsite"
	"github.com/gositemap/sitemap/report"
	"github.com/gositemap/sitemap/store"
)

// lintReport runs one Lint call of s on url into a new report, and
// renders it.
func lintReport(t *testing.T, s *sitemap.S, url string) (*report.Report, string) {
	t.Helper()
	rep := &report.Report{}
	for f := range s.Lint(context.Background(), url, nil, &sitemap.LintOptions{NoRobots: true, EachURL: rep.AddURL}) {
		rep.AddFinding(f)
	}
	return rep, render(t, rep, s.GetDocuments())
}

// With a store and change detection on, the page has the changes since
// the last run: the counts of the call, and the first 20 URLs new,
// changed and gone, the others counted; the URLs gone are not counted as
// URLs of the call. Without, it has no such section.
func TestChangesSection(t *testing.T) {
	cs := testsite.New(t, 3, 10)
	root := cs.URL + "/index.xml"
	if _, page := lintReport(t, sitemap.New(), root); strings.Contains(page, `id="changes"`) {
		t.Error("a section of changes without change detection")
	}
	s := sitemap.New().SetStore(store.NewMemory()).SetIncremental(sitemap.Incremental{Changes: true})
	lintReport(t, s, root)

	gone := cs.Maps[1][3].Loc
	cs.Change(func() {
		for i := range 25 {
			cs.Maps[0] = append(cs.Maps[0], testsite.Page{Loc: fmt.Sprintf("%s/p/new-%02d", cs.URL, i), Lastmod: "2026-01-01"})
		}
		cs.Maps[1] = append(cs.Maps[1][:3], cs.Maps[1][4:]...)
		cs.Maps[2][0].Lastmod = "2026-03-03"
	})
	_, page := lintReport(t, s, root)
	text := checkPage(t, page)
	for _, want := range []string{"Changes since the last run", "New URLs: 25", "and 5 more.", "URLs whose lastmod changed: 1",
		"URLs gone: 1", gone, cs.URL + "/p/new-19", cs.Maps[2][0].Loc, "25 new, 1 lastmod, 1 gone, 0 unknown"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	if strings.Contains(text, cs.URL+"/p/new-20") {
		t.Error("the 21st new URL is listed")
	}
	// The counts: 25 new, 1 changed, 1 gone, 28 unchanged, 0 unknown.
	if !strings.Contains(page, `<td class="n">25</td><td class="n">1</td><td class="n">1</td><td class="n">28</td><td class="n">0</td>`) {
		t.Error("the table of the counts is not 25, 1, 1, 28, 0")
	}
	// The URLs of the call: 30 + 25 - 1, none gone among them.
	if !strings.Contains(text, "0 of 54 URLs") {
		t.Errorf("the URLs counted are not the 54 of the call")
	}
}
