package fleet

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// changingSite is a site whose index and sitemaps a test changes between
// crawls: each document has an ETag of its body, and is answered 304 when
// it is sent back.
type changingSite struct {
	*httptest.Server
	mu       sync.Mutex
	order    []string            // the sitemaps of the index, by name
	maps     map[string][]string // of each sitemap, its URLs: "path" or "path lastmod"
	failing  map[string]bool     // sitemaps answered 500
	subs     map[string][]string // indexes below the index, by name: the sitemaps they list
	gate     chan struct{}       // when not nil, the sitemaps in gated wait for it to close
	gated    map[string]bool
	atGate   chan struct{} // a request waits at the gate
	bodies   atomic.Int64
	notMod   atomic.Int64
	requests atomic.Int64
}

// newChangingSite makes a site of n sitemaps s0..s(n-1) of m URLs each.
func newChangingSite(t testing.TB, n, m int) *changingSite {
	s := &changingSite{maps: map[string][]string{}, failing: map[string]bool{}, subs: map[string][]string{}}
	for i := range n {
		name := fmt.Sprintf("s%d", i)
		s.order = append(s.order, name)
		for j := range m {
			s.maps[name] = append(s.maps[name], fmt.Sprintf("/%d/%d 2024-01-%02d", i, j, j%28+1))
		}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *changingSite) change(f func(s *changingSite)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

func (s *changingSite) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	s.mu.Lock()
	var b bytes.Buffer
	name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".xml")
	switch {
	case r.URL.Path == "/robots.txt":
		fmt.Fprintf(&b, "User-agent: *\nSitemap: %s/index.xml\n", s.URL)
	case name == "index" || s.subs[name] != nil:
		order := s.order
		if name != "index" {
			order = s.subs[name]
		}
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, sm := range order {
			fmt.Fprintf(&b, "<sitemap><loc>%s/%s.xml</loc></sitemap>", s.URL, sm)
		}
		b.WriteString(`</sitemapindex>`)
	case s.gated[name] && s.gate != nil:
		gate := s.gate
		s.mu.Unlock()
		select {
		case s.atGate <- struct{}{}:
		default:
		}
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
		s.mu.Lock()
		fallthrough
	case s.maps[name] != nil && !s.failing[name]:
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, u := range s.maps[name] {
			loc, lastmod, _ := strings.Cut(u, " ")
			fmt.Fprintf(&b, "<url><loc>https://changes.example%s</loc>", loc)
			if lastmod != "" {
				fmt.Fprintf(&b, "<lastmod>%s</lastmod>", lastmod)
			}
			b.WriteString("</url>")
		}
		b.WriteString(`</urlset>`)
	case s.failing[name]:
		s.mu.Unlock()
		http.Error(w, "down", http.StatusInternalServerError)
		return
	default:
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	s.mu.Unlock()
	h := sha256.Sum256(b.Bytes())
	etag := `"` + hex.EncodeToString(h[:8]) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		s.notMod.Add(1)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.bodies.Add(1)
	w.Write(b.Bytes())
}

// libraryChanges is what sitemap -state -changes (or without -changes,
// with -state alone) prints of root: the lines, sorted, with their change,
// and the errors, read by the library in one process with its own store.
func libraryChanges(t testing.TB, st sitemap.Store, root string, only bool) (lines []string, errs []string) {
	lines, errs, _ = libraryCounts(t, st, root, only)
	return lines, errs
}

// libraryCounts is libraryChanges with the counts of the changes.
func libraryCounts(t testing.TB, st sitemap.Store, root string, only bool) (lines []string, errs []string, n sitemap.ChangeCounts) {
	t.Helper()
	s := sitemap.New().SetStore(st).SetIncremental(sitemap.Incremental{Changes: true, OnlyChanges: only})
	for u, err := range s.Stream(context.Background(), root, nil) {
		if err != nil {
			errs = append(errs, errorLine(err))
			continue
		}
		var b bytes.Buffer
		if err := appendLine(&b, &u, string(u.Source.Change())); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
	}
	slices.Sort(lines)
	if docs := s.GetDocuments(); len(docs) > 0 && docs[0].Changes != nil {
		n = *docs[0].Changes
	}
	return lines, errs, n
}

// fleetChanges crawls root with change detection on f and returns what
// collect does, the errors as their lines.
func fleetChanges(t testing.TB, ctx context.Context, f *Fleet, state, root string, only bool) (lines []string, errs []string) {
	lines, errs, _ = fleetCrawl(t, ctx, f, state, root, only)
	return lines, errs
}

// fleetCrawl is fleetChanges with the name of the crawl.
func fleetCrawl(t testing.TB, ctx context.Context, f *Fleet, state, root string, only bool) (lines []string, errs []string, crawl string) {
	t.Helper()
	c := DefaultCrawl()
	c.State, c.Changes, c.OnlyChanges = state, true, only
	crawl, err := f.Submit(ctx, c, root)
	if err != nil {
		t.Fatal(err)
	}
	got, docErrs := collect(t, ctx, f, crawl)
	for _, e := range docErrs {
		var de *DocError
		errors.As(e, &de)
		errs = append(errs, de.Type+": "+de.Message)
	}
	return got, errs, crawl
}

// changesOf counts the lines of each change.
func changesOf(lines []string) map[string]int {
	n := map[string]int{}
	for _, l := range lines {
		u, err := ParseLine([]byte(l))
		if err != nil {
			n["?"]++
			continue
		}
		_, ch, _ := strings.Cut(string(u.JSON), `"change":"`)
		ch, _, _ = strings.Cut(ch, `"`)
		n[ch]++
	}
	return n
}

// The scenario of issue 32 across the fleet, crawl by crawl beside the
// library reading the same site with a store of its own: the first crawl
// hands on every URL new; a second of the unchanged site gets 304 for
// every document and prints nothing; then a URL whose lastmod moved, one
// added, one removed, one moved to another sitemap (and one moved with
// its lastmod moved), one listed by a
// second sitemap, one listed twice that one sitemap drops, a sitemap
// dropped by the index whose URLs move to a new one, and one dropped
// whose URLs are gone: exactly the lines of the library.
func TestChangesAcrossTheFleet(t *testing.T) {
	_, f := startNode(t)
	site := newChangingSite(t, 12, 20)
	site.change(func(s *changingSite) {
		s.maps["s7"] = append(s.maps["s7"], "/shared 2024-02-01")
		s.maps["s8"] = append(s.maps["s8"], "/shared 2024-02-01")
	})
	startWorkers(t, f, 3, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := site.URL + "/index.xml"
	lib := store.NewMemory()

	// First crawl: every URL new.
	want, wantErrs := libraryChanges(t, lib, root, true)
	got, errs := fleetChanges(t, ctx, f, "changes", root, true)
	sameLines(t, got, want)
	if n := changesOf(got); n["new"] != 12*20+2 || len(n) != 1 || len(errs)+len(wantErrs) != 0 {
		t.Fatalf("first crawl: %v, errors %v and the library's %v; want %d new", n, errs, wantErrs, 12*20+2)
	}

	// Second crawl of the unchanged site: every document 304, nothing.
	want, _ = libraryChanges(t, lib, root, true)
	if len(want) != 0 {
		t.Fatalf("the library prints %v on an unchanged site", want)
	}
	before := site.notMod.Load()
	bodies := site.bodies.Load()
	got, errs = fleetChanges(t, ctx, f, "changes", root, true)
	if len(got) != 0 || len(errs) != 0 || site.notMod.Load()-before != 13 || site.bodies.Load() != bodies {
		t.Fatalf("second crawl: %d lines %v, errors %v, %d answered 304 and %d bodies; want none, 13 and none",
			len(got), got, errs, site.notMod.Load()-before, site.bodies.Load()-bodies)
	}

	site.change(func(s *changingSite) {
		s.maps["s1"][3] = "/1/3 2025-06-01"                      // lastmod moved
		s.maps["s2"] = append(s.maps["s2"], "/added 2025-06-01") // new
		s.maps["s3"] = slices.Delete(s.maps["s3"], 5, 6)         // gone: /3/5
		s.maps["s5"] = append(s.maps["s5"], s.maps["s4"][0])     // moved, unchanged
		s.maps["s4"] = s.maps["s4"][1:]                          //
		s.maps["s5"] = append(s.maps["s5"], "/4/1 2025-06-02")   // moved, its lastmod moved
		s.maps["s4"] = slices.DeleteFunc(s.maps["s4"], func(u string) bool { return strings.HasPrefix(u, "/4/1 ") })
		s.maps["s6"] = append(s.maps["s6"], s.maps["s0"][2])                                         // listed twice now
		s.maps["s8"] = s.maps["s8"][:len(s.maps["s8"])-1]                                            // still in s7
		s.maps["s12"] = s.maps["s9"]                                                                 // s9 renamed
		s.order = slices.DeleteFunc(s.order, func(n string) bool { return n == "s9" || n == "s10" }) // s10 gone whole
		s.order = append(s.order, "s12")
	})
	for _, only := range []bool{true, false} {
		want, wantErrs, counts := libraryCounts(t, lib, root, only)
		got, errs, crawl := fleetCrawl(t, ctx, f, "changes", root, only)
		st, err := f.Status(ctx, crawl)
		if err != nil {
			t.Fatal(err)
		}
		// The fleet counts a URL listed by two sitemaps in each: /0/2
		// (s0, answered 304, and s6) and /shared (s7) once more.
		counts.Unchanged += 1
		if st.Changes == nil || *st.Changes != counts {
			t.Errorf("status changes %+v, want %+v", st.Changes, counts)
		}
		sameLines(t, got, want)
		if !slices.Equal(errs, wantErrs) {
			t.Errorf("errors %v, want the library's %v", errs, wantErrs)
		}
		if only {
			if n := changesOf(got); n["new"] != 1 || n["lastmod"] != 2 || n["gone"] != 21 || len(got) != 24 {
				t.Errorf("changes %v; want 1 new, 2 lastmod (one moved), 21 gone (s3's one and s10's 20)", n)
			}
		}
		// The next crawl compares with this one: undo nothing, the
		// second round (everything handed on) finds the site unchanged.
		if !only {
			if n := changesOf(got); n["unchanged"] != len(got) {
				t.Errorf("a crawl of the site unchanged since: %v", n)
			}
		}
	}
}

// A sitemap that fails leaves its URLs unknown, not gone; one of a site
// where more than the share of URLs vanish at once is the library's error,
// and none is gone.
func TestChangesUnknownAndMassRemoval(t *testing.T) {
	_, f := startNode(t)
	site := newChangingSite(t, 10, 10)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := site.URL + "/index.xml"
	lib := store.NewMemory()
	libraryChanges(t, lib, root, true)
	fleetChanges(t, ctx, f, "mass", root, true)

	sameCounts := func(crawl string, want sitemap.ChangeCounts) {
		t.Helper()
		st, err := f.Status(ctx, crawl)
		if err != nil {
			t.Fatal(err)
		}
		if st.Changes == nil || *st.Changes != want {
			t.Errorf("status changes %+v, want the library's %+v", st.Changes, want)
		}
	}

	site.change(func(s *changingSite) { s.failing["s4"] = true })
	want, wantErrs, counts := libraryCounts(t, lib, root, true)
	got, errs, crawl := fleetCrawl(t, ctx, f, "mass", root, true)
	sameLines(t, got, want)
	sameCounts(crawl, counts)
	if counts.Unknown != 10 {
		t.Errorf("the library counts %d unknown, want s4's 10", counts.Unknown)
	}
	if len(got) != 0 || len(errs) != 1 || !slices.Equal(errs, wantErrs) || !strings.Contains(errs[0], "500") {
		t.Errorf("a sitemap failing: %v, errors %v (the library's %v); want no line and its error", got, errs, wantErrs)
	}

	site.change(func(s *changingSite) {
		delete(s.failing, "s4")
		for _, n := range []string{"s1", "s2", "s3", "s5"} {
			s.maps[n] = s.maps[n][:0]
		}
	})
	want, wantErrs, counts = libraryCounts(t, lib, root, true)
	got, errs, crawl = fleetCrawl(t, ctx, f, "mass", root, true)
	sameLines(t, got, want)
	sameCounts(crawl, counts)
	if len(got) != 0 || len(errs) != 1 || !strings.Contains(errs[0], "40 of 100 URLs (40%) gone at once, over the 30% set") {
		t.Errorf("mass removal: %v, errors %v; want none gone and the error", got, errs)
	}
	if !slices.Equal(errs, wantErrs) {
		t.Errorf("error %q, want the library's %q", errs, wantErrs)
	}

	// The URLs held back are kept as unknown: a crawl that allows for
	// 40% finds them gone, each with the sitemap that last listed it.
	lib40 := sitemap.New().SetStore(lib).SetIncremental(sitemap.Incremental{Changes: true, OnlyChanges: true, MaxGoneShare: 0.5})
	want = nil
	for u, err := range lib40.Stream(ctx, root, nil) {
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		appendLine(&b, &u, string(u.Source.Change()))
		want = append(want, strings.TrimSuffix(b.String(), "\n"))
	}
	slices.Sort(want)
	c := DefaultCrawl()
	c.State, c.OnlyChanges, c.MaxGoneShare = "mass", true, 0.5
	crawl, err := f.Submit(ctx, c, root)
	if err != nil {
		t.Fatal(err)
	}
	got, docErrs := collect(t, ctx, f, crawl)
	sameLines(t, got, want)
	if n := changesOf(got); n["gone"] != 40 || len(got) != 40 || len(docErrs) != 0 {
		t.Errorf("a share of 50%%: %v, errors %v; want the 40 gone", n, docErrs)
	}
}

// Change detection needs a State, as the library's needs a store: a crawl
// without one is refused with a *sitemap.ConfigError.
func TestChangesNeedAState(t *testing.T) {
	for _, c := range []Crawl{{Changes: true}, {OnlyChanges: true}, {MaxGoneShare: 0.5}} {
		d := DefaultCrawl()
		d.Changes, d.OnlyChanges, d.MaxGoneShare = c.Changes, c.OnlyChanges, c.MaxGoneShare
		var ce *sitemap.ConfigError
		if err := d.check(); !errors.As(err, &ce) || ce.Field != "incremental.changes" {
			t.Errorf("%+v without a State: %v", c, err)
		}
	}
	d := DefaultCrawl()
	d.State, d.Changes, d.MaxGoneShare = "s", true, 1.5
	var ce *sitemap.ConfigError
	if err := d.check(); !errors.As(err, &ce) || ce.Field != "incremental.maxGoneShare" {
		t.Errorf("a share of 1.5: %v", err)
	}
}

// sitemap-fleet run -state NAME -changes prints what sitemap -state FILE
// -changes prints: every URL new at first, nothing for the unchanged site
// (every document answered 304), then exactly the changes, marked in text
// and with their change in jsonl and csv; -changes needs -state.
func TestRunCommandChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCommand(t)
	site := newChangingSite(t, 6, 10)
	root := site.URL + "/index.xml"
	dir := t.TempDir()
	run := func(args ...string) (stdout, stderr string) {
		t.Helper()
		var e bytes.Buffer
		cmd := exec.Command(bin, append(append([]string{"run", "-dir", dir, "-state", "site"}, args...), root)...)
		cmd.Stderr = &e
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %v: %v\n%s", args, err, e.String())
		}
		return string(out), e.String()
	}
	lib := store.NewMemory()
	libraryChanges(t, lib, root, true)
	out, stderr := run("-changes")
	if n := strings.Count(out, "\n+ https://changes.example/"); n != 59 || !strings.HasPrefix(out, "+ ") ||
		!strings.Contains(stderr, "URLs: 60 new, 0 changed, 0 gone, 0 unchanged, 0 unknown") {
		t.Errorf("first run: %d lines marked new after the first, want 59; stderr %q", n, stderr)
	}

	libraryChanges(t, lib, root, true)
	before := site.notMod.Load()
	out, stderr = run("-changes")
	if out != "" || site.notMod.Load()-before != 7 || !strings.Contains(stderr, "URLs: 0 new, 0 changed, 0 gone, 60 unchanged, 0 unknown") {
		t.Errorf("the unchanged site: %q, %d answered 304 (want 7); stderr %q", out, site.notMod.Load()-before, stderr)
	}

	site.change(func(s *changingSite) {
		s.maps["s1"][3] = "/1/3 2025-06-01"
		s.maps["s2"] = append(s.maps["s2"], "/added")
		s.maps["s3"] = slices.Delete(s.maps["s3"], 5, 6)
		s.maps["s5"] = append(s.maps["s5"], s.maps["s4"][0])
		s.maps["s4"] = s.maps["s4"][1:]
	})
	want, _ := libraryChanges(t, lib, root, true)
	out, _ = run("-changes", "-format", "jsonl")
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	slices.Sort(got)
	sameLines(t, got, want)
	if len(got) != 3 {
		t.Errorf("%d lines, want the 3 changes: %q", len(got), got)
	}
	// Without -changes, the URLs of the sitemaps read are all handed on;
	// those of the sitemaps answered 304 are counted.
	site.change(func(s *changingSite) { s.maps["s1"][3] = "/1/3 2025-07-01" })
	out, _ = run("-format", "csv")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 11 || lines[0] != "loc,lastmod,changefreq,priority,images,news,videos,hreflangs,sitemap,change" ||
		!strings.HasSuffix(lines[1], ",unchanged") || strings.Count(out, ",lastmod\n") != 1 {
		t.Errorf("csv with -state: %d lines, %q", len(lines), lines[:min(len(lines), 2)])
	}
	o, err := exec.Command(bin, "run", "-dir", dir, "-changes", root).CombinedOutput()
	if err == nil || !strings.Contains(string(o), "-changes is for a crawl with -state NAME") {
		t.Errorf("-changes without -state: %v, %s", err, o)
	}
}

// More URLs gone in one document than a message of the server holds (1
// MiB): they are published in batches, and all handed on.
func TestChangesManyGone(t *testing.T) {
	_, f := startNode(t)
	site := newChangingSite(t, 2, 9000)
	startWorkers(t, f, 1, WorkerOptions{Concurrency: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := site.URL + "/index.xml"
	c := DefaultCrawl()
	c.State, c.OnlyChanges, c.MaxGoneShare = "many", true, 1
	c.Timeout = 60 // a sitemap of 9,000 URLs under the race detector on a loaded machine
	for round := range 2 {
		if round == 1 {
			site.change(func(s *changingSite) { s.maps["s1"] = s.maps["s1"][:0] })
		}
		crawl, err := f.Submit(ctx, c, root)
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(t, ctx, f, crawl)
		n := changesOf(got)
		if len(errs) > 0 || round == 0 && n["new"] != 18000 || round == 1 && (n["gone"] != 9000 || len(got) != 9000) {
			t.Errorf("round %d: %v, errors %v", round, n, errs)
		}
	}
}

// Indexes below the index: a sitemap that moves from one to the other
// keeps its URLs (neither gone nor new), and one that an index read whole
// no longer lists takes its URLs with it, as in the library.
func TestChangesNestedIndexes(t *testing.T) {
	_, f := startNode(t)
	site := newChangingSite(t, 4, 5)
	site.change(func(s *changingSite) {
		s.order = []string{"i1", "i2"}
		s.subs["i1"] = []string{"s0", "s1"}
		s.subs["i2"] = []string{"s2", "s3"}
	})
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := site.URL + "/index.xml"
	lib := store.NewMemory()
	libraryChanges(t, lib, root, true)
	fleetChanges(t, ctx, f, "nested", root, true)
	site.change(func(s *changingSite) {
		s.subs["i1"] = []string{"s0"}
		s.subs["i2"] = []string{"s2", "s1"}
	})
	want, wantErrs := libraryChanges(t, lib, root, true)
	got, errs := fleetChanges(t, ctx, f, "nested", root, true)
	sameLines(t, got, want)
	if n := changesOf(got); n["gone"] != 5 || len(got) != 5 || len(errs)+len(wantErrs) != 0 {
		t.Errorf("changes %v, errors %v (the library's %v); want s3's 5 gone", n, errs, wantErrs)
	}
}

// A sitemap an index no longer lists that another document of the crawl
// lists, beyond the depth limit, is of the tree all the same: its URLs are
// unknown, not gone, as in the library.
func TestChangesListedBeyondDepth(t *testing.T) {
	_, f := startNode(t)
	site := newChangingSite(t, 6, 5)
	site.change(func(s *changingSite) {
		s.order = []string{"i1", "j"}
		s.subs["i1"] = []string{"s0", "s2", "s3", "s4", "s5"}
		s.subs["j"] = []string{"i2"}
		s.subs["i2"] = []string{"s1"}
	})
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := site.URL + "/index.xml"
	lib := store.NewMemory()
	crawlBoth := func() (got, want []string) {
		t.Helper()
		s := sitemap.New().SetStore(lib).SetMaxDepth(2).SetIncremental(sitemap.Incremental{OnlyChanges: true})
		for u, err := range s.Stream(ctx, root, nil) {
			if err == nil {
				var b bytes.Buffer
				appendLine(&b, &u, string(u.Source.Change()))
				want = append(want, strings.TrimSuffix(b.String(), "\n"))
			}
		}
		slices.Sort(want)
		c := DefaultCrawl()
		c.State, c.OnlyChanges, c.MaxDepth = "depth", true, 2
		crawl, err := f.Submit(ctx, c, root)
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(t, ctx, f, crawl)
		for _, err := range errs {
			if !strings.Contains(err.Error(), "max recursion depth") {
				t.Errorf("error %v", err)
			}
		}
		return got, want
	}
	got, want := crawlBoth()
	sameLines(t, got, want)
	if len(got) != 25 {
		t.Fatalf("first crawl: %d lines; want the 25 URLs of i1's sitemaps new", len(got))
	}
	site.change(func(s *changingSite) {
		s.subs["i1"] = []string{"s1", "s2", "s3", "s4", "s5"}
		s.subs["i2"] = []string{"s1", "s0"}
	})
	got, want = crawlBoth()
	sameLines(t, got, want)
	if n := changesOf(got); n["new"] != 5 || len(got) != 5 {
		t.Errorf("second crawl: %v; want s1's 5 new, and s0's unknown", n)
	}
}

// A worker that stops in the middle of a crawl with change detection
// loses nothing and doubles nothing: its documents are delivered again to
// another, which compares them with the same records (a document's are
// put only once its output is stored), and the output is the library's.
func TestChangesWorkerStops(t *testing.T) {
	_, f := startNode(t)
	site := newChangingSite(t, 8, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := site.URL + "/index.xml"
	lib := store.NewMemory()
	libraryChanges(t, lib, root, true)
	work := func(name string) (stop func()) {
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			f.Work(wctx, WorkerOptions{Name: name, Concurrency: 4, Logf: t.Logf})
		}()
		return func() { cancel(); <-done }
	}
	stopFirst := work("first")
	fleetChanges(t, ctx, f, "stops", root, true)
	stopFirst()

	site.change(func(s *changingSite) {
		for i := range 8 {
			name := fmt.Sprintf("s%d", i)
			s.maps[name] = append(s.maps[name][1:], fmt.Sprintf("/new/%d", i)) // one gone, one new in each
		}
	})
	want, _ := libraryChanges(t, lib, root, true)
	site.change(func(s *changingSite) {
		s.gate, s.atGate = make(chan struct{}), make(chan struct{}, 1)
		s.gated = map[string]bool{"s4": true, "s5": true, "s6": true, "s7": true}
	})
	stop := work("stops")
	c := DefaultCrawl()
	c.State, c.OnlyChanges = "stops", true
	crawl, err := f.Submit(ctx, c, root)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-site.atGate:
	case <-ctx.Done():
		t.Fatal("no request came to the gate")
	}
	stop() // the worker stops with documents in hand
	site.change(func(s *changingSite) { close(s.gate) })
	defer work("second")()
	got, errs := collect(t, ctx, f, crawl)
	sameLines(t, got, want)
	if len(errs) > 0 || len(got) != 16 {
		t.Errorf("%d lines, errors %v; want 8 new and 8 gone", len(got), errs)
	}
	if st, err := f.Status(ctx, crawl); err != nil || st.Redelivered == 0 {
		t.Errorf("status %+v, %v; want jobs delivered again", st, err)
	}
}

// sortByHash sorts by hash as a sort by comparison does, keeping the order
// of equal hashes.
func TestSortByHash(t *testing.T) {
	var a []listed
	for i := range 5000 {
		h := hashLoc(fmt.Sprint(i % 4000)) // some twice
		a = append(a, listed{h: h, sm: uint32(i)})
	}
	want := slices.Clone(a)
	slices.SortStableFunc(want, func(x, y listed) int { return cmp.Compare(x.h, y.h) })
	sortByHash(a)
	if !slices.Equal(a, want) {
		t.Error("sortByHash differs from a stable sort")
	}
}

// The key of a record is the library's: the request key, a password
// replaced by xxxxx.
func TestStoreKeyOf(t *testing.T) {
	for loc, want := range map[string]string{
		"https://Example.com:443/a.xml":         "https://example.com/a.xml",
		"https://user:secret@example.com/a.xml": "https://user:xxxxx@example.com/a.xml",
		"https://user@example.com/a@b.xml":      "https://user@example.com/a@b.xml",
	} {
		if got := storeKeyOf(loc); got != want {
			t.Errorf("storeKeyOf(%q) = %q, want %q", loc, got, want)
		}
	}
	// The library's own store keys the records so: a record put by a
	// call is found under storeKeyOf.
	st := store.NewMemory()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"x"`)
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`)
	}))
	defer srv.Close()
	loc := strings.Replace(srv.URL, "http://", "http://user:secret@", 1) + "/s.xml"
	sitemap.New().SetStore(st).Parse(loc, nil)
	if _, ok, err := st.Get(context.Background(), storeKeyOf(loc)); !ok || err != nil {
		t.Errorf("no record under %q: %v", storeKeyOf(loc), err)
	}
}

// From a robots.txt, through the index it names, every URL's change (no
// OnlyChanges: the unchanged too, those of the sitemaps answered 304
// counted, not printed) is the library's.
func TestChangesFromRobots(t *testing.T) {
	_, f := startNode(t)
	site := newChangingSite(t, 5, 6)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := site.URL + "/robots.txt"
	lib := store.NewMemory()
	want, _ := libraryChanges(t, lib, root, false)
	got, errs := fleetChanges(t, ctx, f, "robots", root, false)
	sameLines(t, got, want)
	if len(got) != 30 || len(errs) > 0 {
		t.Fatalf("first crawl: %d lines, errors %v", len(got), errs)
	}
	site.change(func(s *changingSite) {
		s.maps["s1"][0] = "/1/0 2025-01-01"
		s.maps["s2"] = s.maps["s2"][1:]
	})
	want, _ = libraryChanges(t, lib, root, false)
	got, errs = fleetChanges(t, ctx, f, "robots", root, false)
	sameLines(t, got, want)
	if n := changesOf(got); n["lastmod"] != 1 || n["gone"] != 1 || n["unchanged"] != 10 || len(errs) > 0 {
		t.Errorf("second crawl: %v, errors %v; want s1's and s2's 10 unchanged, 1 lastmod, 1 gone", n, errs)
	}
}

// A snapshot larger than a message is kept in parts and read back whole.
func TestSnapshotParts(t *testing.T) {
	_, f := startNode(t)
	ctx := context.Background()
	want := &oldTree{dups: map[uint64]struct{}{7: {}, 9: {}}, total: 200000}
	for i := range 200000 { // 2.4 MB: three parts
		want.entries = append(want.entries, oldEntry{h: uint64(i) * 3, fp: uint32(i)})
	}
	if err := f.putSnapshot(ctx, "parts", want); err != nil {
		t.Fatal(err)
	}
	got, err := f.loadSnapshot(ctx, "parts")
	if err != nil {
		t.Fatal(err)
	}
	if n, total, _ := f.snapshotSize(ctx, "parts"); n < 3 || total != 200000 ||
		!slices.Equal(got.entries, want.entries) || len(got.dups) != 2 || got.total != want.total {
		t.Errorf("%d parts, total %d; read back %d entries, %d dups, total %d", n, total, len(got.entries), len(got.dups), got.total)
	}
	if es := got.find(3 * 1234); len(es) != 1 || es[0].fp != 1234 {
		t.Errorf("find: %v", es)
	}
}
