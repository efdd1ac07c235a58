package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// Conditional fetching and Since (issue 16): SetStore, store.OpenFile, and
// SetIncremental's TrustIndexLastMod and Since.

// cdSite is a loopback site whose documents carry validators and answer
// conditional requests, and count what they were asked and gave.
type cdSite struct {
	*httptest.Server
	mu                       sync.Mutex
	docs                     map[string]*cdDoc
	requests, conditional    int
	notModified, bodies      int
	etags, lastModifieds     bool // which validators the documents carry
	ignoreValidators, always bool // answer 200 to anything / 304 to anything
}

type cdDoc struct {
	body    string
	version int
}

func newCDSite(t *testing.T, etags, lastModifieds bool) *cdSite {
	t.Helper()
	st := &cdSite{docs: map[string]*cdDoc{}, etags: etags, lastModifieds: lastModifieds}
	st.Server = httptest.NewServer(http.HandlerFunc(st.serve))
	t.Cleanup(st.Close)
	return st
}

var cdEpoch = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func (st *cdSite) serve(w http.ResponseWriter, r *http.Request) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.requests++
	d, ok := st.docs[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	inm, ims := r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
	if inm != "" || ims != "" {
		st.conditional++
	}
	etag := fmt.Sprintf(`"%d"`, d.version)
	mod := cdEpoch.Add(time.Duration(d.version) * time.Hour).Format(http.TimeFormat)
	if st.etags {
		w.Header().Set("ETag", etag)
	}
	if st.lastModifieds {
		w.Header().Set("Last-Modified", mod)
	}
	if st.always || !st.ignoreValidators && (st.etags && inm == etag || !st.etags && st.lastModifieds && ims == mod) {
		st.notModified++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	st.bodies++
	fmt.Fprint(w, strings.ReplaceAll(d.body, "{base}", st.URL))
}

func (st *cdSite) set(path, body string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if d, ok := st.docs[path]; ok {
		d.body = body
		d.version++
		return
	}
	st.docs[path] = &cdDoc{body: body}
}

// counts returns the counts since the last call, and starts them again.
func (st *cdSite) counts() (requests, conditional, notModified, bodies int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	requests, conditional, notModified, bodies = st.requests, st.conditional, st.notModified, st.bodies
	st.requests, st.conditional, st.notModified, st.bodies = 0, 0, 0, 0
	return
}

func cdURLSet(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>", l)
	}
	return b.String() + "</urlset>"
}

// cdIndex lists {base}/s0.xml … with the given lastmods ("" for none).
func cdIndex(lastmods ...string) string {
	var b strings.Builder
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i, lm := range lastmods {
		if lm == "" {
			fmt.Fprintf(&b, "<sitemap><loc>{base}/s%d.xml</loc></sitemap>", i)
		} else {
			fmt.Fprintf(&b, "<sitemap><loc>{base}/s%d.xml</loc><lastmod>%s</lastmod></sitemap>", i, lm)
		}
	}
	return b.String() + "</sitemapindex>"
}

func cdStatuses(s *sitemap.S) map[sitemap.Status]int {
	out := map[sitemap.Status]int{}
	for _, d := range s.GetDocuments() {
		out[d.Status]++
	}
	return out
}

func cdParse(t *testing.T, s *sitemap.S, loc string) {
	t.Helper()
	if _, err := s.Parse(loc, nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if errs := s.GetErrors(); len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
}

// The three runs of the issue, with ETags, with Last-Modified alone: the
// second sends every request with validators and reads no body; after one
// sitemap changes, the third reads it alone.
func TestConditionalRuns(t *testing.T) {
	for _, v := range []struct {
		name          string
		etags, lastMs bool
	}{{"etag", true, false}, {"last-modified", false, true}, {"both", true, true}} {
		t.Run(v.name, func(t *testing.T) {
			const n = 5
			st := newCDSite(t, v.etags, v.lastMs)
			st.set("/index.xml", cdIndex(make([]string, n)...))
			for i := range n {
				st.set(fmt.Sprintf("/s%d.xml", i), cdURLSet(fmt.Sprintf("https://example.com/%d", i)))
			}
			mem := store.NewMemory()
			s := sitemap.New().SetFetchTimeout(60).SetStore(mem)

			cdParse(t, s, st.URL+"/index.xml")
			if got, _, _, bodies := st.counts(); got != n+1 || bodies != n+1 || s.GetURLCount() != n {
				t.Fatalf("first run: %d requests, %d bodies, %d URLs", got, bodies, s.GetURLCount())
			}
			if mem.Len() != n+1 {
				t.Fatalf("%d records, want %d", mem.Len(), n+1)
			}

			cdParse(t, s, st.URL+"/index.xml")
			req, cond, nm, bodies := st.counts()
			if req != n+1 || cond != n+1 || nm != n+1 || bodies != 0 {
				t.Errorf("second run: %d requests, %d conditional, %d 304, %d bodies; want %d, %d, %d, 0", req, cond, nm, bodies, n+1, n+1, n+1)
			}
			if got := cdStatuses(s); got[sitemap.StatusUnchanged] != n+1 || len(got) != 1 {
				t.Errorf("second run statuses %v, want %d unchanged", got, n+1)
			}
			if s.GetURLCount() != 0 || len(s.GetSitemaps()) != n {
				t.Errorf("second run: %d URLs, %d sitemaps listed; want 0 and %d", s.GetURLCount(), len(s.GetSitemaps()), n)
			}
			for _, d := range s.GetDocuments() {
				if d.HTTPStatus != http.StatusNotModified {
					t.Errorf("%s: HTTP status %d, want 304", d.URL, d.HTTPStatus)
				}
			}

			st.set("/s2.xml", cdURLSet("https://example.com/2-new"))
			cdParse(t, s, st.URL+"/index.xml")
			if _, _, nm, bodies := st.counts(); bodies != 1 || nm != n {
				t.Errorf("third run: %d bodies, %d 304; want 1 and %d", bodies, nm, n)
			}
			if got := s.GetURLs(); len(got) != 1 || got[0].Loc != "https://example.com/2-new" {
				t.Errorf("third run URLs %v, want the changed sitemap's", got)
			}

			cdParse(t, s, st.URL+"/index.xml")
			if _, _, _, bodies := st.counts(); bodies != 0 {
				t.Errorf("fourth run: %d bodies, want 0", bodies)
			}
		})
	}
}

// With the index's lastmod alone, and Incremental.TrustIndexLastMod: the second run
// requests the index alone; the sitemap whose lastmod moved is read.
func TestConditionalIndexLastmod(t *testing.T) {
	st := newCDSite(t, false, false)
	lastmods := []string{"2026-11-01", "2026-11-01T10:00:00Z", "2026-11-02", ""}
	st.set("/index.xml", cdIndex(lastmods...))
	for i := range lastmods {
		st.set(fmt.Sprintf("/s%d.xml", i), cdURLSet(fmt.Sprintf("https://example.com/%d", i)))
	}
	s := sitemap.New().SetFetchTimeout(60).SetStore(store.NewMemory()).SetIncremental(sitemap.Incremental{TrustIndexLastMod: true})
	cdParse(t, s, st.URL+"/index.xml")
	if req, _, _, _ := st.counts(); req != 5 {
		t.Fatalf("first run: %d requests", req)
	}

	cdParse(t, s, st.URL+"/index.xml")
	// The index, and the sitemap with no lastmod, which nothing says is
	// unchanged.
	if req, cond, _, _ := st.counts(); req != 2 || cond != 0 {
		t.Errorf("second run: %d requests, %d conditional; want 2 and 0", req, cond)
	}
	if got := cdStatuses(s); got[sitemap.StatusUnchanged] != 3 || got[sitemap.StatusParsed] != 2 {
		t.Errorf("statuses %v, want 3 unchanged, 2 parsed", got)
	}
	if fetched := s.GetURLCount(); fetched != 1 {
		t.Errorf("%d URLs, want 1", fetched)
	}

	lastmods[1] = "2026-11-01T11:00:00+01:00" // the same time, written otherwise
	lastmods[2] = "2026-11-03"
	st.set("/index.xml", cdIndex(lastmods...))
	st.set("/s2.xml", cdURLSet("https://example.com/2-new"))
	cdParse(t, s, st.URL+"/index.xml")
	if req, _, _, _ := st.counts(); req != 3 {
		t.Errorf("third run: %d requests, want 3 (index, s2, s3)", req)
	}
	if !slices.Contains(locsOf(s.GetURLs()), "https://example.com/2-new") {
		t.Errorf("URLs %v lack the changed sitemap's", locsOf(s.GetURLs()))
	}
	// Off, every sitemap is requested.
	s.SetIncremental(sitemap.Incremental{TrustIndexLastMod: false})
	cdParse(t, s, st.URL+"/index.xml")
	if req, _, _, _ := st.counts(); req != 5 {
		t.Errorf("without the trust: %d requests, want 5", req)
	}
}

// An unchanged index of indexes: what each unchanged index listed is
// followed from its record, all the way down.
func TestConditionalNestedIndexes(t *testing.T) {
	st := newCDSite(t, true, false)
	st.set("/index.xml", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>{base}/inner.xml</loc></sitemap></sitemapindex>`)
	st.set("/inner.xml", cdIndex("", ""))
	st.set("/s0.xml", cdURLSet("https://example.com/0"))
	st.set("/s1.xml", cdURLSet("https://example.com/1"))
	s := sitemap.New().SetFetchTimeout(60).SetStore(store.NewMemory())
	cdParse(t, s, st.URL+"/index.xml")
	st.counts()
	st.set("/s1.xml", cdURLSet("https://example.com/1-new"))
	cdParse(t, s, st.URL+"/index.xml")
	if req, _, nm, bodies := st.counts(); req != 4 || nm != 3 || bodies != 1 {
		t.Errorf("%d requests, %d 304, %d bodies; want 4, 3, 1", req, nm, bodies)
	}
	if got := locsOf(s.GetURLs()); len(got) != 1 || got[0] != "https://example.com/1-new" {
		t.Errorf("URLs %v", got)
	}
}

// A 304 to a request sent without validators is a *NetworkError.
func TestConditional304WithoutValidators(t *testing.T) {
	st := newCDSite(t, true, false)
	st.always = true
	st.set("/s.xml", cdURLSet("https://example.com/a"))
	for name, s := range map[string]*sitemap.S{
		"no store":    sitemap.New().SetFetchTimeout(60),
		"empty store": sitemap.New().SetFetchTimeout(60).SetStore(store.NewMemory()),
	} {
		_, err := s.Parse(st.URL+"/s.xml", nil)
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || !strings.Contains(err.Error(), "304") {
			t.Errorf("%s: error = %v, want the *NetworkError of the 304", name, err)
		}
	}
}

// Only a document read whole, every URL of it delivered, updates the mem.
func TestConditionalStoreKeepsOldRecord(t *testing.T) {
	st := newCDSite(t, true, false)
	st.set("/s.xml", cdURLSet("https://example.com/a", "https://example.com/b"))
	st.set("/cut.xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url><url><loc>https://exa`)
	key := st.URL + "/s.xml"

	for name, run := range map[string]func(s *sitemap.S){
		"max URLs": func(s *sitemap.S) { s.SetMaxURLs(1).Parse(st.URL+"/s.xml", nil) },
		"break out of Stream": func(s *sitemap.S) {
			for range s.Stream(t.Context(), st.URL+"/s.xml", nil) {
				break
			}
		},
		"context": func(s *sitemap.S) {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			s.ParseContext(ctx, st.URL+"/s.xml", nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			mem := store.NewMemory()
			run(sitemap.New().SetFetchTimeout(60).SetStore(mem))
			if _, ok, _ := mem.Get(t.Context(), key); ok {
				t.Error("the store has a record of a document not delivered whole")
			}
		})
	}
	t.Run("truncated", func(t *testing.T) {
		mem := store.NewMemory()
		sitemap.New().SetFetchTimeout(60).SetStore(mem).Parse(st.URL+"/cut.xml", nil)
		if mem.Len() != 0 {
			t.Error("the store has a record of a truncated document")
		}
	})
	t.Run("stream to its end", func(t *testing.T) {
		mem := store.NewMemory()
		n := 0
		for _, err := range sitemap.New().SetFetchTimeout(60).SetStore(mem).Stream(t.Context(), st.URL+"/s.xml", nil) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if _, ok, _ := mem.Get(t.Context(), key); !ok || n != 2 {
			t.Errorf("%d URLs, record %v; want 2 and a record", n, ok)
		}
	})
	// A record made before stays when a later run is cut short.
	t.Run("old record kept", func(t *testing.T) {
		mem := store.NewMemory()
		s := sitemap.New().SetFetchTimeout(60).SetStore(mem)
		cdParse(t, s, st.URL+"/s.xml")
		old, _, _ := mem.Get(t.Context(), key)
		st.set("/s.xml", cdURLSet("https://example.com/a", "https://example.com/b", "https://example.com/c"))
		s.SetMaxURLs(1).Parse(st.URL+"/s.xml", nil)
		if now, _, _ := mem.Get(t.Context(), key); now.ETag != old.ETag {
			t.Errorf("record %q, want the old %q", now.ETag, old.ETag)
		}
	})
}

// The keys are the request keys, a password redacted.
func TestConditionalStoreKeys(t *testing.T) {
	st := newCDSite(t, true, false)
	st.set("/s.xml", cdURLSet("https://example.com/a"))
	mem := store.NewMemory()
	loc := strings.Replace(st.URL, "http://", "http://user:secret@", 1) + "/s.xml#frag"
	cdParse(t, sitemap.New().SetFetchTimeout(60).SetStore(mem), loc)
	want := strings.Replace(st.URL, "http://", "http://user:xxxxx@", 1) + "/s.xml"
	if _, ok, _ := mem.Get(t.Context(), want); !ok {
		t.Errorf("no record under %q", want)
	}
}

// failingStore fails every Get or Put.
type failingStore struct{ get, put bool }

var errStoreDown = errors.New("store down")

func (f failingStore) Get(context.Context, string) (sitemap.Record, bool, error) {
	if f.get {
		return sitemap.Record{}, false, errStoreDown
	}
	return sitemap.Record{}, false, nil
}

func (f failingStore) Put(context.Context, string, sitemap.Record) error {
	if f.put {
		return errStoreDown
	}
	return nil
}

func TestConditionalStoreErrors(t *testing.T) {
	st := newCDSite(t, true, false)
	st.set("/s.xml", cdURLSet("https://example.com/a"))
	for name, failing := range map[string]sitemap.Store{"get": failingStore{get: true}, "put": failingStore{put: true}} {
		t.Run(name, func(t *testing.T) {
			s := sitemap.New().SetFetchTimeout(60).SetStore(failing)
			s.Parse(st.URL+"/s.xml", nil)
			if s.GetURLCount() != 1 {
				t.Errorf("%d URLs, want the document read as with no store", s.GetURLCount())
			}
			errs := s.GetErrors()
			var perr *sitemap.ParseError
			if len(errs) != 1 || !errors.As(errs[0], &perr) || !errors.Is(errs[0], errStoreDown) {
				t.Errorf("errors %v, want one *ParseError wrapping the store's", errs)
			}
		})
	}
}

// The state file: kept across instances through store.OpenFile and
// SetStore; a corrupt one is an error of OpenFile naming it, and is written
// anew when opened with DiscardCorrupt.
func TestConditionalStateFile(t *testing.T) {
	st := newCDSite(t, true, false)
	st.set("/s.xml", cdURLSet("https://example.com/a"))
	path := filepath.Join(t.TempDir(), "state.json")
	open := func(o *store.FileOptions) *sitemap.S {
		t.Helper()
		f, err := store.OpenFile(path, o)
		if err != nil {
			t.Fatal(err)
		}
		return sitemap.New().SetFetchTimeout(60).SetStore(f)
	}
	cdParse(t, open(nil), st.URL+"/s.xml")
	st.counts()
	cdParse(t, open(nil), st.URL+"/s.xml")
	if _, _, nm, _ := st.counts(); nm != 1 {
		t.Errorf("a new instance on the file: %d 304, want 1", nm)
	}

	os.WriteFile(path, []byte("garbage"), 0o644)
	if _, err := store.OpenFile(path, nil); !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Errorf("OpenFile of a corrupt file: %v, want ErrCorrupt naming %s", err, path)
	}
	cdParse(t, open(&store.FileOptions{DiscardCorrupt: true}), st.URL+"/s.xml")
	if _, err := store.OpenFile(path, nil); err != nil {
		t.Errorf("the state file was not written anew: %v", err)
	}
}

// Since leaves out the URLs older than the time, a date without a time at
// its own precision, and they do not count towards the URL limit.
func TestSinceURLs(t *testing.T) {
	since := time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)
	entries := []struct {
		lastmod string
		keep    bool
	}{
		{"2024-01-15", true}, {"2024-01-14", false}, {"2024-01-15T11:00:00Z", false},
		{"2024-01-15T12:30:00+01:00", false}, {"2024-01-15T13:00:00+01:00", true}, {"2024-01-15T12:00:00Z", true}, {"2024-01-15T13:00Z", true},
		{"2024-01", true}, {"2023-12", false}, {"2024", true}, {"2023", false},
		{"", true}, {"not a date", true}, {"2025-06-01", true},
	}
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	var want []string
	for i, e := range entries {
		loc := fmt.Sprintf("https://example.com/%d", i)
		fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod></url>", loc, e.lastmod)
		if e.keep {
			want = append(want, loc)
		}
	}
	b.WriteString("</urlset>")
	doc := b.String()
	s := sitemap.New().SetIncremental(sitemap.Incremental{Since: since}).SetMaxURLs(len(want))
	s.Parse("https://example.com/sitemap.xml", &doc)
	if got := locsOf(s.GetURLs()); !slices.Equal(got, want) {
		t.Errorf("URLs %v, want %v", got, want)
	}
	for _, err := range s.GetErrors() {
		if errors.Is(err, sitemap.ErrMaxURLs) {
			t.Error("the URLs left out counted towards the URL limit")
		}
	}
	if !s.GetIncremental().Since.Equal(since) {
		t.Errorf("GetIncremental().Since = %v", s.GetIncremental().Since)
	}
	s = sitemap.New()
	s.Parse("https://example.com/sitemap.xml", &doc)
	if s.GetURLCount() != int64(len(entries)) {
		t.Errorf("without Since: %d URLs, want %d", s.GetURLCount(), len(entries))
	}
}

// Since does not fetch a sitemap whose index gives it an older lastmod.
func TestSinceSitemaps(t *testing.T) {
	st := newCDSite(t, false, false)
	st.set("/index.xml", cdIndex("2024-01-10", "2024-01-15", "", "2024-02-01T00:00:00Z"))
	for i := range 4 {
		st.set(fmt.Sprintf("/s%d.xml", i), cdURLSet(fmt.Sprintf("https://example.com/%d", i)))
	}
	s := sitemap.New().SetFetchTimeout(60).SetIncremental(sitemap.Incremental{Since: time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)})
	cdParse(t, s, st.URL+"/index.xml")
	if req, _, _, _ := st.counts(); req != 4 {
		t.Errorf("%d requests, want 4 (the index and three sitemaps)", req)
	}
	if len(s.GetSitemaps()) != 4 {
		t.Errorf("%d sitemaps listed, want 4", len(s.GetSitemaps()))
	}
	for _, d := range s.GetDocuments() {
		want := sitemap.StatusParsed
		if strings.HasSuffix(d.URL, "/s0.xml") {
			want = sitemap.StatusNotModifiedSince
		}
		if d.Status != want {
			t.Errorf("%s: status %s, want %s", d.URL, d.Status, want)
		}
	}
}

// A document whose URLs Since left out in part keeps its old record: a
// later run that asks for more must not receive a 304 for them.
func TestConditionalSinceKeepsRecord(t *testing.T) {
	st := newCDSite(t, true, false)
	st.set("/s.xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/old</loc><lastmod>2020-01-01</lastmod></url><url><loc>https://example.com/new</loc><lastmod>2026-01-01</lastmod></url></urlset>`)
	mem := store.NewMemory()
	s := sitemap.New().SetFetchTimeout(60).SetStore(mem).SetIncremental(sitemap.Incremental{Since: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	cdParse(t, s, st.URL+"/s.xml")
	if s.GetURLCount() != 1 || mem.Len() != 0 {
		t.Errorf("%d URLs, %d records; want 1 and none", s.GetURLCount(), mem.Len())
	}
	s.SetIncremental(sitemap.Incremental{Since: time.Time{}})
	cdParse(t, s, st.URL+"/s.xml")
	if s.GetURLCount() != 2 || mem.Len() != 1 {
		t.Errorf("without Since: %d URLs, %d records; want 2 and 1", s.GetURLCount(), mem.Len())
	}
}

// ctxStore is a store that honours the context it is given, as a database
// client does: a Put with a context that has ended fails.
type ctxStore struct{ *store.Memory }

func (c ctxStore) Put(ctx context.Context, key string, r sitemap.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.Memory.Put(ctx, key, r)
}

// A streaming call puts the record of its last document as it ends, after
// its own context has been cancelled: Put is given one that keeps the
// call's values and is never cancelled, so a store that honours its
// context (a fleet's, on a database) records every document, and the run
// is complete. Before, the last record failed with "context canceled".
func TestStreamPutsItsLastRecordAfterItsEnd(t *testing.T) {
	srv := serveDocs(t, indexDocs(3, 2))
	st := ctxStore{store.NewMemory()}
	s := sitemap.New().SetStore(st)
	n := 0
	for _, err := range s.Stream(context.Background(), srv.URL+"/index.xml", nil) {
		if err != nil {
			t.Fatalf("Stream: %v", err)
		}
		n++
	}
	if n != 6 {
		t.Fatalf("%d URLs, want 6", n)
	}
	for i := range 3 {
		loc := fmt.Sprintf("%s/s%d.xml", srv.URL, i)
		if _, ok, _ := st.Get(context.Background(), store.RequestKey(loc)); !ok {
			t.Errorf("no record of %s", loc)
		}
	}
}
