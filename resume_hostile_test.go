package sitemap_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/testsite"
	"github.com/gositemap/sitemap/store"
)

// streamUntil streams root with s, counting each URL handed on in seen,
// and leaves the loop after the URL that stop names (never when stop is
// empty). Errors fail the test.
func streamUntil(t *testing.T, s *sitemap.S, root, stop string, seen map[string]int) {
	t.Helper()
	for u, err := range s.Stream(context.Background(), root, nil) {
		if err != nil {
			t.Fatal(err)
		}
		seen[u.Loc]++
		if stop != "" && strings.HasSuffix(u.Loc, stop) {
			return
		}
	}
}

// A run cut short under one selection of URLs and resumed under another
// does not trust the records of the first: a sitemap the first handed on
// whole under its rules (or KeepURL, or with only the changes) handed on
// only what they let through, and the second run, which lets through
// more, reads it again. Across the two runs every URL the second hands on
// is handed on. (The site serves no validators: a sitemap answered 304
// is not read, whichever selection put its record.)
func TestResumeUnderAnotherSelection(t *testing.T) {
	for name, first := range map[string]func(s *sitemap.S){
		"rules": func(s *sitemap.S) { s.SetRules([]string{`/p/\d+-0$`}) },
		"KeepURL": func(s *sitemap.S) {
			s.SetSelection(sitemap.Selection{KeepURL: func(u sitemap.URL) bool { return strings.HasSuffix(u.Loc, "-0") }})
		},
		"only changes": func(s *sitemap.S) {
			s.SetIncremental(sitemap.Incremental{OnlyChanges: true})
		},
	} {
		t.Run(name, func(t *testing.T) {
			cs := testsite.New(t, 10, 5)
			cs.NoETag = true
			root := cs.URL + "/index.xml"
			st := store.NewMemory()
			s := sitemap.New().SetStore(st).SetMultiThread(false).SetIncremental(sitemap.Incremental{Changes: true})
			streamUntil(t, s, root, "", map[string]int{})
			cs.Change(func() { cs.Maps[3][0].Lastmod, cs.Maps[7][0].Lastmod = "2026-03-03", "2026-03-03" })
			first(s)
			seen := map[string]int{}
			streamUntil(t, s, root, "/p/7-0", seen)
			if seen[cs.Maps[7][0].Loc] == 0 {
				t.Fatal("the first run was not cut in sitemap 7")
			}
			s = sitemap.New().SetStore(st).SetMultiThread(false).SetIncremental(sitemap.Incremental{Changes: true})
			streamUntil(t, s, root, "", seen)
			for _, sm := range cs.Maps {
				for _, p := range sm {
					if seen[p.Loc] == 0 {
						t.Errorf("%s never handed on", p.Loc)
					}
				}
			}
		})
	}
}

// The records of the sitemaps are shared by the runs of every document
// given, each with a run of its own: a run from a sitemap of an index, cut
// short and resumed, does not take a record put by a run from the index
// for one of its own.
func TestResumeAnotherRoot(t *testing.T) {
	cs := testsite.New(t, 10, 5)
	st := store.NewMemory()
	s := sitemap.New().SetStore(st).SetMultiThread(false).SetIncremental(sitemap.Incremental{Changes: true})
	seen := map[string]int{}
	streamUntil(t, s, cs.URL+"/index.xml", "/p/5-2", seen)
	// Sitemap 2, read whole by the index's run cut short, gains a URL and
	// is now the document given: cut at its first URL, then resumed.
	cs.Change(func() {
		cs.Maps[2] = append(cs.Maps[2], testsite.Page{Loc: cs.URL + "/p/2-late", Lastmod: "2026-01-01"})
	})
	leaf := cs.URL + "/s/2.xml"
	seen = map[string]int{}
	streamUntil(t, s, leaf, "/p/2-0", seen)
	streamUntil(t, s, leaf, "", seen)
	for _, p := range cs.Maps[2] {
		if seen[p.Loc] == 0 {
			t.Errorf("%s never handed on by the runs from %s", p.Loc, leaf)
		}
	}
}

// Two streaming calls from one document with one store at once (two
// instances of a server sharing a store.Memory): the second does not
// take the first, still going, for a run cut short, which it would resume,
// leaving out every sitemap the first has handed on; each hands on every
// URL.
func TestResumeNotARunGoingOn(t *testing.T) {
	cs := testsite.New(t, 10, 5)
	cs.NoETag = true
	root := cs.URL + "/index.xml"
	st := store.NewMemory()
	reached, release := make(chan struct{}), make(chan struct{})
	cs.Change(func() {
		cs.Gate[7] = func(http.ResponseWriter) {
			select {
			case <-reached:
				return // the second call
			default:
			}
			close(reached)
			<-release
		}
	})
	newS := func() *sitemap.S {
		return sitemap.New().SetStore(st).SetMultiThread(false).SetIncremental(sitemap.Incremental{Changes: true})
	}
	first := map[string]int{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u, err := range newS().Stream(context.Background(), root, nil) {
			if err == nil {
				first[u.Loc]++
			}
		}
	}()
	<-reached
	second := map[string]int{}
	streamUntil(t, newS(), root, "", second)
	close(release)
	<-done
	if len(first) != 50 || len(second) != 50 {
		t.Errorf("the call going on handed on %d URLs, the one at the same time %d; want 50 each", len(first), len(second))
	}
}

// A URL dropped by its sitemap in a run cut short after that sitemap was
// handed on (whether it was new in the run before, its list marking it
// added, or known for longer) is gone in the next run: in the run that
// resumes the cut one, and in a run that does not (NoResume, or another
// selection), which reads the list the cut run put, its removed entries
// included.
func TestResumeGoneOfACutRun(t *testing.T) {
	for _, next := range []sitemap.Incremental{{OnlyChanges: true}, {OnlyChanges: true, NoResume: true}} {
		for _, known := range []bool{false, true} {
			cs := testsite.New(t, 10, 5)
			root := cs.URL + "/index.xml"
			s := sitemap.New().SetStore(store.NewMemory()).SetMultiThread(false).SetIncremental(sitemap.Incremental{OnlyChanges: true})
			streamUntil(t, s, root, "", map[string]int{})
			if known {
				// A second run: the URLs are no longer new in the last.
				cs.Change(func() { cs.Maps[9][0].Lastmod = "2027-01-01" })
				streamUntil(t, s, root, "", map[string]int{})
			}
			dropped := cs.Maps[2][0].Loc
			cs.Change(func() { cs.Maps[2] = cs.Maps[2][1:]; cs.Maps[5][0].Lastmod = "2027-01-01" })
			streamUntil(t, s, root, "/p/5-0", map[string]int{})
			s.SetIncremental(next)
			lines, errs, counts := changeRun(t, s, root)
			if want := "- " + dropped; !slices.Contains(lines, want) || len(errs) != 0 || counts.Gone != 1 {
				t.Errorf("no resume %v, known before the last run %v: %v, errors %v, counts %+v; want %q", next.NoResume, known, lines, errs, counts, want)
			}
		}
	}
}

// A sitemap that an index read whole no longer lists, in a run cut short
// after the index was handed on, takes its URLs with it in the next run,
// resumed or not: the record of the index the cut run put no longer leads
// to it, and its URLs did not vanish unreported.
func TestResumeGoneOfADroppedSitemap(t *testing.T) {
	for _, next := range []sitemap.Incremental{{OnlyChanges: true}, {OnlyChanges: true, NoResume: true}} {
		cs := testsite.New(t, 10, 5)
		root := cs.URL + "/index.xml"
		s := sitemap.New().SetStore(store.NewMemory()).SetMultiThread(false).SetIncremental(sitemap.Incremental{OnlyChanges: true, MaxGoneShare: 1})
		streamUntil(t, s, root, "", map[string]int{})
		cs.Change(func() { cs.Maps = cs.Maps[:9]; cs.Maps[5][0].Lastmod = "2027-01-01" })
		streamUntil(t, s, root, "/p/5-0", map[string]int{})
		next.MaxGoneShare = 1
		s.SetIncremental(next)
		lines, errs, counts := changeRun(t, s, root)
		if n := countMarks(lines); n["-"] != 5 || len(errs) != 0 || counts.Gone != 5 {
			t.Errorf("no resume %v: %v, errors %v, counts %+v; want the 5 URLs of sitemap 9 gone", next.NoResume, lines, errs, counts)
		}
	}
}

// A loop whose body panics ends its call, run and store included: the
// next call from the same document resumes it as any run cut short (it
// was taken for one still going, and read everything again).
func TestResumeAfterAPanickingLoop(t *testing.T) {
	cs := testsite.New(t, 10, 5)
	cs.NoETag = true // nothing answered 304: a run not resumed hands on everything
	root := cs.URL + "/index.xml"
	s := sitemap.New().SetStore(store.NewMemory()).SetMultiThread(false).SetIncremental(sitemap.Incremental{Changes: true})
	func() {
		defer func() { recover() }()
		for u := range s.Stream(context.Background(), root, nil) {
			if strings.Contains(u.Loc, "/p/5-2") {
				panic("the caller's")
			}
		}
	}()
	seen := map[string]int{}
	streamUntil(t, s, root, "", seen)
	if len(seen) != 25 {
		t.Errorf("the run after the panic handed on %d URLs, want those of sitemaps 5 to 9", len(seen))
	}
}
