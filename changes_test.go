package sitemap_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// changeSite is a loopback site of an index and its urlsets, each served
// with an ETag and answered 304 when a request carries it (issue 32).
type changeSite struct {
	mu     sync.Mutex
	maps   [][]pageAt     // the URLs of each sitemap
	status map[int]int    // a status a sitemap answers instead
	notMod int            // requests answered 304
	gate   map[int]func() // called before sitemap i is served
	*httptest.Server
}

type pageAt struct{ loc, lastmod string }

func newChangeSite(t testing.TB, sitemaps, per int) *changeSite {
	cs := &changeSite{status: map[int]int{}, gate: map[int]func(){}}
	cs.Server = httptest.NewServer(http.HandlerFunc(cs.serve))
	t.Cleanup(cs.Close)
	for i := range sitemaps {
		var ps []pageAt
		for j := range per {
			ps = append(ps, pageAt{fmt.Sprintf("%s/p/%d-%d", cs.URL, i, j), "2026-01-01"})
		}
		cs.maps = append(cs.maps, ps)
	}
	return cs
}

func (cs *changeSite) serve(w http.ResponseWriter, r *http.Request) {
	var body string
	var n int
	cs.mu.Lock()
	isIndex := r.URL.Path == "/index.xml"
	if !isIndex {
		if _, err := fmt.Sscanf(r.URL.Path, "/s/%d.xml", &n); err != nil || n >= len(cs.maps) {
			cs.mu.Unlock()
			http.NotFound(w, r)
			return
		}
	}
	gate := cs.gate[n]
	st := cs.status[n]
	if isIndex {
		gate, st = nil, 0
		var b strings.Builder
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range cs.maps {
			fmt.Fprintf(&b, "<sitemap><loc>%s/s/%d.xml</loc></sitemap>", cs.URL, i)
		}
		b.WriteString("</sitemapindex>")
		body = b.String()
	} else {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range cs.maps[n] {
			fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod></url>", p.loc, p.lastmod)
		}
		b.WriteString("</urlset>")
		body = b.String()
	}
	cs.mu.Unlock()
	if gate != nil {
		gate()
	}
	if st != 0 {
		w.WriteHeader(st)
		return
	}
	h := fnv.New64a()
	h.Write([]byte(body))
	etag := fmt.Sprintf(`"%x"`, h.Sum64())
	if r.Header.Get("If-None-Match") == etag {
		cs.mu.Lock()
		cs.notMod++
		cs.mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Write([]byte(body))
}

// change applies f to the site, under its lock, and resets the count of
// 304s.
func (cs *changeSite) change(f func()) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.notMod = 0
	f()
}

func (cs *changeSite) notModified() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.notMod
}

// reshape makes the changes of issue 32's scenario: 10 URLs added to
// sitemap 0, 5 removed from sitemap 1, 20 moved from sitemap 2 to sitemap
// 3 as they are, and the lastmod of 7 of sitemap 4 moved.
func (cs *changeSite) reshape() {
	cs.change(func() {
		for j := range 10 {
			cs.maps[0] = append(cs.maps[0], pageAt{fmt.Sprintf("%s/p/added-%d", cs.URL, j), "2026-02-01"})
		}
		cs.maps[1] = cs.maps[1][5:]
		cs.maps[3] = append(cs.maps[3], cs.maps[2][:20]...)
		cs.maps[2] = cs.maps[2][20:]
		for j := range 7 {
			cs.maps[4][j].lastmod = "2026-02-02"
		}
	})
}

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
	cs := newChangeSite(t, 200, 25)
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

	cs.reshape()
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
	if got := cs.notModified(); got != 196 {
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

	cs.change(func() { cs.status[9] = http.StatusInternalServerError })
	lines, errs, counts = changeRun(t, s, root)
	if len(lines) != 0 || len(errs) != 1 || counts.Unknown != 25 || counts.Gone != 0 {
		t.Errorf("run with sitemap 9 failing: %v, errors %v, counts %+v; want nothing handed on, 25 unknown", lines, errs, counts)
	}

	// Back, then 40% of the URLs vanish: 80 sitemaps emptied.
	cs.change(func() {
		delete(cs.status, 9)
		for i := 100; i < 180; i++ {
			cs.maps[i] = nil
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
