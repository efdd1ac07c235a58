package sitemap_test

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unsafe"

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
		mark := map[sitemap.Change]string{sitemap.ChangeNew: "+", sitemap.ChangeLastMod: "~", sitemap.ChangeGone: "-", sitemap.ChangeUnchanged: "="}[u.Source.Change()]
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
	t.Parallel() // it measures no heap: on a second core beside the others
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
	// A sitemap the index no longer lists takes its URLs with it; one a
	// follow rule leaves out keeps them, unknown.
	cs.Change(func() { cs.Maps = cs.Maps[:199] })
	s.SetFollow([]string{`/index\.xml$`, `/s/[^5]\d*\.xml$`})
	lines, errs, counts = changeRun(t, s, root)
	if n := countMarks(lines); n["-"] != 25 || len(lines) != 25 || len(errs) != 0 || !strings.Contains(lines[0], "/p/199-") || counts.Unknown != 25*11 {
		t.Errorf("sitemap 199 no longer listed, sitemaps 5 and 50-59 not followed: %v %v, errors %v, counts %+v", n, lines[:min(len(lines), 2)], errs, counts)
	}
}

// A URL stays 128 bytes with change detection: its fields fill the 128
// bytes with no padding (16 for Loc, 8 for each pointer, 24 for each
// slice, 8 for Source), so a Change field of its own would make it 136;
// the change rides in the record of its Source instead, and is not part
// of its encoding/xml form.
func TestURLSizeWithChanges(t *testing.T) {
	if got := unsafe.Sizeof(sitemap.URL{}); got != 128 {
		t.Errorf("URL is %d bytes, want 128", got)
	}
	s := sitemap.New().SetStore(store.NewMemory()).SetIncremental(sitemap.Incremental{Changes: true})
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`
	s.ParseContext(context.Background(), "https://example.com/sitemap.xml", &doc)
	urls := s.GetURLs()
	if len(urls) != 1 || urls[0].Source.Change() != sitemap.ChangeNew {
		t.Fatalf("%+v", urls)
	}
	out, err := xml.Marshal(urls[0])
	if err != nil || strings.Contains(string(out), "new") || strings.Contains(strings.ToLower(string(out)), "change") {
		t.Errorf("xml form %s, %v: the change is in it", out, err)
	}
}

// The selection functions apply with the rules, and a panic in either is
// raised as a *PanicError, from Parse and from Stream.
func TestSelectionFunctions(t *testing.T) {
	cs := testsite.New(t, 3, 4)
	var asked []string
	var mu sync.Mutex
	s := sitemap.New().SetRules([]string{`/p/[01]-`}).SetSelection(sitemap.Selection{
		FollowSitemap: func(d sitemap.Document) bool {
			mu.Lock()
			asked = append(asked, fmt.Sprintf("%s depth %d parent %d", d.URL[len(cs.URL):], d.Depth, d.Parent))
			mu.Unlock()
			return !strings.HasSuffix(d.URL, "/s/1.xml")
		},
		KeepURL: func(u sitemap.URL) bool { return !strings.HasSuffix(u.Loc, "-3") },
	})
	if _, err := s.Parse(cs.URL+"/index.xml", nil); err != nil {
		t.Fatal(err)
	}
	sort.Strings(asked)
	if got := locsOf(s.GetURLs()); len(got) != 3 || !strings.Contains(strings.Join(got, " "), "/p/0-2") {
		t.Errorf("URLs %v, want sitemap 0's less the last (sitemap 1 not followed, sitemap 2 ruled out)", got)
	}
	if want := []string{"/s/0.xml depth 1 parent 0", "/s/1.xml depth 1 parent 0", "/s/2.xml depth 1 parent 0"}; !slices.Equal(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
	if st := s.GetDocuments()[2].Status; st != sitemap.StatusNotFollowed {
		t.Errorf("sitemap 1: %s", st)
	}
	for _, stream := range []bool{false, true} {
		s := sitemap.New().SetSelection(sitemap.Selection{KeepURL: func(u sitemap.URL) bool { panic("in stock?") }})
		func() {
			defer func() {
				p, ok := recover().(*sitemap.PanicError)
				if !ok || p.Value != "in stock?" {
					t.Errorf("stream %v: recovered %v, want the *PanicError of the panic", stream, p)
				}
			}()
			if stream {
				for range s.Stream(context.Background(), cs.URL+"/s/0.xml", nil) {
				}
			} else {
				s.Parse(cs.URL+"/s/0.xml", nil)
			}
		}()
	}
}

// A streaming call cut short (its loop left) is resumed by the next call
// with the same store: the sitemaps whose URLs were all handed on are not
// read again, the one being handed on is; with NoResume, everything is.
func TestResumeAfterBreak(t *testing.T) {
	cs := testsite.New(t, 10, 5)
	st := store.NewMemory()
	root := cs.URL + "/index.xml"
	s := sitemap.New().SetStore(st).SetMultiThread(false).SetIncremental(sitemap.Incremental{Changes: true})
	seen := map[string]int{}
	for u, err := range s.Stream(context.Background(), root, nil) {
		if err != nil {
			t.Fatal(err)
		}
		seen[u.Loc]++
		if strings.Contains(u.Loc, "/p/5-2") {
			break
		}
	}
	var second []string
	for u, err := range s.Stream(context.Background(), root, nil) {
		if err != nil {
			t.Fatal(err)
		}
		seen[u.Loc]++
		second = append(second, u.Loc)
	}
	for _, sm := range cs.Maps {
		for _, p := range sm {
			switch n := seen[p.Loc]; {
			case n == 0:
				t.Errorf("%s never handed on", p.Loc)
			case n > 1 && !strings.Contains(p.Loc, "/p/5-"):
				t.Errorf("%s handed on %d times", p.Loc, n)
			}
		}
	}
	docs := s.GetDocuments()
	for _, d := range docs[1:6] {
		if d.Status != sitemap.StatusUnchanged {
			t.Errorf("resumed: %s %s, want unchanged", d.URL, d.Status)
		}
	}
	if len(second) != 25 {
		t.Errorf("the resumed run handed on %d URLs, want those of sitemaps 5 to 9", len(second))
	}
	// Complete now: a new run reads everything again (answered 304 here).
	s.SetIncremental(sitemap.Incremental{Changes: true, NoResume: true})
	cs.Change(func() {})
	for range s.Stream(context.Background(), root, nil) {
	}
	if got := cs.NotModified(); got != 11 {
		t.Errorf("a run after a complete one: %d answered 304, want 11", got)
	}
}

// A URL two sitemaps list is one URL: dropped by one of them, it is still
// listed by the other, neither gone nor new; dropped by both, it is gone
// once. Whichever of the two drops it first.
func TestChangesListedTwice(t *testing.T) {
	for _, first := range []int{0, 1} {
		cs := testsite.New(t, 3, 4)
		other := 1 - first
		twice := cs.Maps[other][0]
		cs.Change(func() { cs.Maps[first] = append(cs.Maps[first], twice) })
		s := sitemap.New().SetStore(store.NewMemory()).SetIncremental(sitemap.Incremental{OnlyChanges: true})
		root := cs.URL + "/index.xml"
		if _, errs, _ := changeRun(t, s, root); len(errs) != 0 {
			t.Fatal(errs)
		}
		cs.Change(func() { cs.Maps[first] = cs.Maps[first][:4] })
		lines, errs, counts := changeRun(t, s, root)
		if len(lines) != 0 || len(errs) != 0 || counts != (sitemap.ChangeCounts{Unchanged: 12}) {
			t.Errorf("dropped by sitemap %d, still in sitemap %d: %v, errors %v, counts %+v; want nothing, 12 unchanged", first, other, lines, errs, counts)
		}
		cs.Change(func() { cs.Maps[other] = cs.Maps[other][1:] })
		lines, _, counts = changeRun(t, s, root)
		if want := []string{"- " + twice.Loc}; !slices.Equal(lines, want) || counts.Gone != 1 || counts.Unchanged != 11 {
			t.Errorf("dropped by both, sitemap %d first: %v, counts %+v; want %v", first, lines, counts, want)
		}
	}
}

// A URL the URL rules or Selection.KeepURL leave out is still listed by
// its sitemap: not handed on, not gone, not counted; its record keeps the
// lastmod last handed on, so let through again it is compared with that;
// one new while it was left out is new then.
func TestChangesLeftOutStillListed(t *testing.T) {
	cs := testsite.New(t, 2, 5)
	s := sitemap.New().SetStore(store.NewMemory()).SetIncremental(sitemap.Incremental{OnlyChanges: true})
	root := cs.URL + "/index.xml"
	if _, errs, counts := changeRun(t, s, root); len(errs) != 0 || counts.New != 10 {
		t.Fatal(errs, counts)
	}
	ruled, kept, late := cs.Maps[0][1].Loc, cs.Maps[1][2].Loc, cs.URL+"/p/late"
	cs.Change(func() {
		cs.Maps[0][1].Lastmod = "2026-02-02"
		cs.Maps[1] = append(cs.Maps[1], testsite.Page{Loc: late, Lastmod: "2026-01-01"})
	})
	s.SetRules([]string{`^` + regexp.QuoteMeta(cs.URL) + `/p/(?:[^0]|0-[^1])`}).SetSelection(sitemap.Selection{
		KeepURL: func(u sitemap.URL) bool { return u.Loc != kept && u.Loc != late },
	})
	lines, errs, counts := changeRun(t, s, root)
	if len(lines) != 0 || len(errs) != 0 || counts != (sitemap.ChangeCounts{Unchanged: 8}) {
		t.Errorf("%s ruled out, %s and a new one left out by KeepURL: %v, errors %v, counts %+v; want nothing, 8 unchanged", ruled, kept, lines, errs, counts)
	}
	s.SetRules(nil).SetSelection(sitemap.Selection{})
	cs.Change(func() {
		for i := range cs.Maps {
			cs.Maps[i] = append(cs.Maps[i], testsite.Page{Loc: fmt.Sprintf("%s/p/x%d", cs.URL, i), Lastmod: "2026-01-01"})
		}
	})
	lines, errs, counts = changeRun(t, s, root)
	want := []string{"+ " + late, "+ " + cs.URL + "/p/x0", "+ " + cs.URL + "/p/x1", "~ " + ruled}
	if sort.Strings(want); !slices.Equal(lines, want) || len(errs) != 0 || counts != (sitemap.ChangeCounts{New: 3, LastMod: 1, Unchanged: 9}) {
		t.Errorf("let through again: %v, errors %v, counts %+v; want %v, 9 unchanged", lines, errs, counts, want)
	}
}
