package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/testsite"
	"github.com/gositemap/sitemap/report"
	"github.com/gositemap/sitemap/store"
)

// Issue 34 with issue 32: the report of a second call with a store and
// change detection on shows the changes since the first: the card, the
// counts, and the URLs new and gone as links, shown unfolded.
func TestChangesInBrowser(t *testing.T) {
	b := newBrowser(t)
	cs := testsite.New(t, 2, 5)
	s := sitemap.New().SetStore(store.NewMemory()).SetIncremental(sitemap.Incremental{Changes: true})
	lint := func() *report.Report {
		rep := &report.Report{Title: "Changes"}
		for f := range s.Lint(context.Background(), cs.URL+"/index.xml", nil, &sitemap.LintOptions{NoRobots: true, EachURL: rep.AddURL}) {
			rep.AddFinding(f)
		}
		return rep
	}
	lint()
	gone := cs.Maps[1][0].Loc
	cs.Change(func() {
		for i := range 3 {
			cs.Maps[0] = append(cs.Maps[0], testsite.Page{Loc: fmt.Sprintf("%s/p/new-%d", cs.URL, i), Lastmod: "2026-02-01"})
		}
		cs.Maps[1] = cs.Maps[1][1:]
	})
	var page bytes.Buffer
	if err := lint().WriteHTML(&page, s.GetDocuments()); err != nil {
		t.Fatal(err)
	}
	u := b.open(t, page.Bytes())
	type section struct {
		Card, Counts string
		New, Gone    []string
		Shown        bool
	}
	got := eval[section](t, b, `({
		Card: [...document.querySelectorAll('.card')].find(c => c.querySelector('.label').textContent === 'Changes')?.querySelector('.value').textContent,
		Counts: [...document.querySelectorAll('#changes tbody td')].map(td => td.textContent).join(' '),
		New: [...document.querySelectorAll('#changes-new li a')].map(a => a.href),
		Gone: [...document.querySelectorAll('#changes-gone li a')].map(a => a.href),
		Shown: document.querySelector('#changes-gone li').checkVisibility()})`)
	if got.Card != "4" || got.Counts != "3 0 1 9 0" || len(got.New) != 3 || len(got.Gone) != 1 || got.Gone[0] != gone || !got.Shown {
		t.Errorf("the changes in the page: %+v; want the card 4, counts 3 0 1 9 0, 3 new, %s gone, shown", got, gone)
	}
	if !strings.Contains(strings.Join(got.New, " "), "/p/new-2") {
		t.Errorf("new: %v", got.New)
	}
	b.screenshot(t, "report-changes.png")
	b.onlyRequested(t, u)
}
