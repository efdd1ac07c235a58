package sitemap_test

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/testsite"
	"github.com/gositemap/sitemap/store"
)

// changeRun streams the site's index with changes on and returns the
// lines of the changes handed on ("+ URL", "~ URL", "- URL"), sorted, the
// errors, and the counts.
func changeRun(t *testing.T, s *sitemap.S, root string) (lines, errs []string, counts sitemap.ChangeCounts) {
	t.Helper()
	for u, err := range s.Stream(context.Background(), root, nil) {
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		mark := map[sitemap.Change]string{sitemap.ChangeNew: "+", sitemap.ChangeLastmod: "~", sitemap.ChangeGone: "-", sitemap.ChangeUnchanged: "="}[u.Source.Change()]
		if mark == "" {
			t.Fatalf("%s handed on with no change", u.Loc)
		}
		lines = append(lines, mark+" "+u.Loc)
	}
	sort.Strings(lines)
	if docs := s.GetDocuments(); len(docs) > 0 && docs[0].Changes != nil {
		counts = *docs[0].Changes
	}
	return lines, errs, counts
}

func countMarks(lines []string) map[string]int {
	n := map[string]int{}
	for _, l := range lines {
		n[l[:1]]++
	}
	return n
}

// The scenario of issue 32 on the library: the second run hands on
// exactly the 10 new, the 7 whose lastmod moved and the 5 gone, nothing of
// the 20 moved, with 196 documents answered 304; a sitemap that fails
// leaves its URLs unknown, none gone; 40% of the URLs vanishing at once is
// the error, none gone.
func TestChangesScenario(t *testing.T) {
	cs := testsite.New(t, 200, 25)
	st := store.NewMemory()
	s := sitemap.New().SetStore(st).SetIncremental(sitemap.Incremental{OnlyChanges: true})
	root := cs.URL + "/index.xml"

	lines, errs, counts := changeRun(t, s, root)
	if n := countMarks(lines); n["+"] != 5000 || len(lines) != 5000 || len(errs) != 0 {
		t.Fatalf("first run: %v, errors %v; want 5000 new", n, errs)
	}
	if counts != (sitemap.ChangeCounts{New: 5000}) {
		t.Errorf("first run counts %+v", counts)
	}

	cs.Reshape()
	lines, errs, counts = changeRun(t, s, root)
	n := countMarks(lines)
	if n["+"] != 10 || n["~"] != 7 || n["-"] != 5 || len(lines) != 22 || len(errs) != 0 {
		t.Errorf("second run: %v (%d lines), errors %v; want 10 +, 7 ~, 5 -", n, len(lines), errs)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "- ") && !strings.Contains(l, "/p/1-") {
			t.Errorf("gone: %s, want one of sitemap 1's", l)
		}
		if strings.Contains(l, "/p/2-") {
			t.Errorf("a URL moved is reported: %s", l)
		}
	}
	if got := cs.NotModified(); got != 196 {
		t.Errorf("%d documents answered 304, want 196 (the index and 195 sitemaps)", got)
	}
	if want := (sitemap.ChangeCounts{New: 10, LastMod: 7, Gone: 5, Unchanged: 5000 - 5 - 7}); counts != want {
		t.Errorf("second run counts %+v, want %+v", counts, want)
	}
	// The gone URL carries the sitemap that last listed it.
	for u := range s.URLs() {
		if u.Source.Change() == sitemap.ChangeGone && u.Source.URL() != cs.URL+"/s/1.xml" {
			t.Errorf("gone %s from %s", u.Loc, u.Source.URL())
		}
	}

	cs.Change(func() { cs.Status[9] = http.StatusInternalServerError })
	lines, errs, counts = changeRun(t, s, root)
	if len(lines) != 0 || len(errs) != 1 || counts.Unknown != 25 || counts.Gone != 0 {
		t.Errorf("run with sitemap 9 failing: %v, errors %v, counts %+v; want nothing handed on, 25 unknown", lines, errs, counts)
	}

	// Back, then 40% of the URLs vanish: 80 sitemaps emptied.
	cs.Change(func() {
		delete(cs.Status, 9)
		for i := 100; i < 180; i++ {
			cs.Maps[i] = nil
		}
	})
	lines, errs, counts = changeRun(t, s, root)
	if len(lines) != 0 || counts.Gone != 0 || counts.Unknown != 2000 {
		t.Errorf("40%% gone: %v, counts %+v; want none handed on, 2000 unknown", lines, counts)
	}
	if want := "2000 of 5005 URLs (40%) gone at once, over the 30% set"; len(errs) != 1 || !strings.Contains(errs[0], want) {
		t.Errorf("errors %q, want one with %q", errs, want)
	}
	// They are kept as unknown: a share of 100% lets them go the next run.
	s.SetIncremental(sitemap.Incremental{OnlyChanges: true, MaxGoneShare: 1})
	lines, errs, counts = changeRun(t, s, root)
	if n := countMarks(lines); n["-"] != 2000 || len(lines) != 2000 || len(errs) != 0 {
		t.Errorf("after the guard, with the share at 1: %v, errors %v, counts %+v; want 2000 gone", n, errs, counts)
	}
}
