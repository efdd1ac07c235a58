package sitemap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Tests of how the results are held in memory: the growth of the list of
// URLs, the chunks documents fill and give back, and the dates and
// priorities the URLs of a document share (issue 7, "Memory").

// indexServer serves /index.xml, listing children sitemaps of perChild
// URLs each, /s-<i>.xml. The URLs of child i are /p/<i>/<j>, and the
// lastmod and priority of each are given by lastmod(i, j) and priority(i, j).
func indexServer(t *testing.T, children, perChild int, lastmod func(i, j int) string, priority func(i, j int) string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		if r.URL.Path == "/index.xml" {
			b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range children {
				fmt.Fprintf(&b, "<sitemap><loc>/s-%d.xml</loc></sitemap>", i)
			}
			b.WriteString(`</sitemapindex>`)
			w.Write([]byte(b.String()))
			return
		}
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/s-%d.xml", &i); err != nil {
			http.NotFound(w, r)
			return
		}
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for j := range perChild {
			fmt.Fprintf(&b, "<url><loc>http://%s/p/%d/%d</loc><lastmod>%s</lastmod><priority>%s</priority></url>",
				r.Host, i, j, lastmod(i, j), priority(i, j))
		}
		b.WriteString(`</urlset>`)
		w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The values indexServer gives: one date and one priority for all URLs,
// or a day of its own for URL j of child i.
func sameDate(i, j int) string { return "2024-01-15" }

func samePrio(i, j int) string { return "0.5" }

func dayOf(i, j int) time.Time {
	return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i*10_000+j)
}

func distinctDate(i, j int) string { return dayOf(i, j).Format("2006-01-02") }

// With the sitemaps of an index all of one size, the estimate of growURLs is
// right, and the list of URLs grows to what the call keeps, with at most the
// quarter to spare that the smallest growth leaves, rather than doubling
// past it (to 16,000 for 9,250 URLs, 12,800 for 10,000).
func TestGrowURLsToWhatTheIndexHolds(t *testing.T) {
	for _, tc := range []struct{ children, perChild int }{{1, 700}, {10, 100}, {37, 250}, {200, 50}} {
		srv := indexServer(t, tc.children, tc.perChild, sameDate, samePrio)
		s, err := New().SetMultiThread(false).Parse(srv.URL+"/index.xml", nil)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.children * tc.perChild
		if got := s.GetURLCount(); got != int64(want) {
			t.Fatalf("%+v: %d URLs, want %d", tc, got, want)
		}
		if got := cap(s.urls); got > want+want/4 {
			t.Errorf("%+v: the list of URLs has room for %d, want %d and at most a quarter more", tc, got, want)
		}
	}
}

// TestGrowURLsFewTimesForLikeSitemaps: 200 sitemaps of 500 URLs each,
// committed one after the other. Once two sitemaps of one size have been
// committed, the list grows sixteen times over toward the estimate, so it
// is allocated three times in all, not five (500, 8,000, then the 100,000
// of the estimate), and ends the size of what it holds.
func TestGrowURLsFewTimesForLikeSitemaps(t *testing.T) {
	s := New()
	chunk := make([]URL, 500)
	allocs := 0
	for k := range 200 {
		before := cap(s.urls)
		s.urlDocs++
		s.growURLs(len(chunk), 200-k-1)
		if cap(s.urls) != before {
			allocs++
		}
		s.urls = append(s.urls, chunk...)
	}
	if allocs != 3 || cap(s.urls) != 100_000 {
		t.Errorf("the list was allocated %d times, to room for %d; want 3 times, to 100,000", allocs, cap(s.urls))
	}
}

// An estimate skewed by one large sitemap among small ones does not reserve
// room for more large ones: the list ends at most a quarter above what the
// call keeps, where the mean of the sitemaps so far would have asked for
// room for 50 × 2,500 URLs.
func TestGrowURLsNotMisledByOneLargeSitemap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		switch r.URL.Path {
		case "/index.xml":
			b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 50 {
				fmt.Fprintf(&b, "<sitemap><loc>/s-%d.xml</loc></sitemap>", i)
			}
			b.WriteString(`</sitemapindex>`)
		case "/s-0.xml":
			b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for j := range 5000 {
				fmt.Fprintf(&b, "<url><loc>http://%s/big/%d</loc></url>", r.Host, j)
			}
			b.WriteString(`</urlset>`)
		default:
			fmt.Fprintf(&b, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://%s%s/page</loc></url></urlset>`, r.Host, r.URL.Path)
		}
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	s, err := New().SetMultiThread(false).Parse(srv.URL+"/index.xml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.GetURLCount(); n != 5049 {
		t.Fatalf("%d URLs, want 5049", n)
	}
	if c := cap(s.urls); c > 5049+5049/4 {
		t.Errorf("the list of URLs has room for %d, for 5,049 URLs", c)
	}
}

// The chunks a document fills are given back and filled by the next
// documents, of the same call and of later ones: the URLs kept must not
// change when that happens, nor a list handed out by an earlier call.
func TestReusedChunksLeaveResultsAlone(t *testing.T) {
	for _, multi := range []bool{false, true} {
		srv := indexServer(t, 6, 3*urlChunk+17, distinctDate, func(i, j int) string { return fmt.Sprintf("0.%d", j%10) })
		s := New().SetFetchTimeout(60).SetMultiThread(multi)
		check := func(urls []URL) {
			t.Helper()
			seen := map[string]bool{}
			for _, u := range urls {
				// The location ends in /p/<i>/<j>: document i, entry j.
				is, js, _ := strings.Cut(u.Loc[strings.Index(u.Loc, "/p/")+3:], "/")
				i, err1 := strconv.Atoi(is)
				j, err2 := strconv.Atoi(js)
				if err1 != nil || err2 != nil {
					t.Fatalf("multi=%v: %q: %v %v", multi, u.Loc, err1, err2)
				}
				if seen[u.Loc] {
					t.Fatalf("multi=%v: %s twice", multi, u.Loc)
				}
				seen[u.Loc] = true
				if u.LastMod == nil || !u.LastMod.Equal(dayOf(i, j)) {
					t.Fatalf("multi=%v: %s has lastmod %v, want %v", multi, u.Loc, u.LastMod, dayOf(i, j))
				}
				if u.Priority == nil || *u.Priority != float32(j%10)/10 {
					t.Fatalf("multi=%v: %s has priority %v, want 0.%d", multi, u.Loc, u.Priority, j%10)
				}
			}
			if len(seen) != 6*(3*urlChunk+17) {
				t.Fatalf("multi=%v: %d URLs", multi, len(seen))
			}
		}
		if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil || s.GetErrorsCount() != 0 {
			t.Fatal(err, s.GetErrors())
		}
		first := s.GetURLs()
		check(first)
		if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil || s.GetErrorsCount() != 0 {
			t.Fatal(err, s.GetErrors())
		}
		check(s.GetURLs())
		check(first)
	}
}

// The URLs of a document that give the same date or priority share one
// value; those that give different ones keep their own, however many
// different values a document gives (more than maxShared here).
func TestSharedDatesAndPriorities(t *testing.T) {
	srv := indexServer(t, 1, 2*maxShared+5, func(i, j int) string {
		if j%2 == 0 {
			return "2024-01-15T10:00:00+02:00"
		}
		return distinctDate(i, j)
	}, func(i, j int) string {
		if j%2 == 0 {
			return "0.8"
		}
		return fmt.Sprintf("0.%04d", j)
	})
	s, err := New().Parse(srv.URL+"/s-0.xml", nil)
	if err != nil {
		t.Fatal(err)
	}
	urls := s.GetURLs()
	if len(urls) != 2*maxShared+5 {
		t.Fatalf("%d URLs", len(urls))
	}
	even := time.Date(2024, 1, 15, 8, 0, 0, 0, time.UTC)
	for j, u := range urls {
		if j%2 == 0 {
			if u.LastMod != urls[0].LastMod || u.Priority != urls[0].Priority {
				t.Fatalf("URL %d: the same date and priority as URL 0 are not shared", j)
			}
			if !u.LastMod.Equal(even) || *u.Priority != 0.8 {
				t.Fatalf("URL %d: %v %v", j, u.LastMod, *u.Priority)
			}
			continue
		}
		if !u.LastMod.Equal(dayOf(0, j)) {
			t.Fatalf("URL %d: lastmod %v, want %v", j, u.LastMod, dayOf(0, j))
		}
		if want := float32(j) / 10000; *u.Priority != want {
			t.Fatalf("URL %d: priority %v, want %v", j, *u.Priority, want)
		}
		if j > 1 && (u.LastMod == urls[j-2].LastMod || u.Priority == urls[j-2].Priority) {
			t.Fatalf("URL %d shares a date or priority with URL %d, which differs", j, j-2)
		}
	}
	// What URLs() yields is the caller's own, shared or not.
	var copies []URL
	for u := range s.URLs() {
		copies = append(copies, u)
		if len(copies) == 3 {
			break
		}
	}
	*copies[0].LastMod = LastModTime{}
	*copies[0].Priority = 0
	if !urls[2].LastMod.Equal(even) || *urls[2].Priority != 0.8 || copies[2].LastMod.IsZero() {
		t.Error("changing a copy from URLs() reached the URLs the instance keeps")
	}
}

// TestAloneDocumentListSized: a document read alone, of a known size of
// listMinSize or more (listMinGzipped gzipped), puts its URLs in an array
// sized from the bytes read so far, which the results then keep as it is.
// Whether the document comes as content, as a response with a
// Content-Length or gzipped, the results take the array over, with little
// room to spare. A smaller document's URLs are copied into an array of
// their number.
func TestAloneDocumentListSized(t *testing.T) {
	const n = 20_000
	var xmlDoc, textDoc strings.Builder
	xmlDoc.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range n {
		// A key that compresses little, so that the gzipped form is
		// larger than listMinGzipped.
		key := uint64(i) * 0x9E3779B97F4A7C15
		fmt.Fprintf(&xmlDoc, "<url><loc>https://example.com/p/%d/%016x</loc><lastmod>2024-01-15</lastmod></url>\n", i, key)
		fmt.Fprintf(&textDoc, "https://example.com/p/%d/in-a-category-with-a-long-name\n", i)
	}
	xmlDoc.WriteString(`</urlset>`)
	packed := fuzzGzip([]byte(xmlDoc.String()))
	if xmlDoc.Len() < listMinSize || textDoc.Len() < listMinSize || len(packed) < listMinGzipped {
		t.Fatalf("documents of %d and %d bytes, %d gzipped; want %d or more, and %d gzipped", xmlDoc.Len(), textDoc.Len(), len(packed), listMinSize, listMinGzipped)
	}
	xmlContent, textContent := xmlDoc.String(), textDoc.String()
	small := xmlContent[:listMinSize/2]
	small = small[:strings.LastIndex(small, "\n")] + "</urlset>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := []byte(xmlContent)
		switch r.URL.Path {
		case "/sitemap.xml.gz":
			body = packed
		case "/small.xml.gz":
			body = fuzzGzip([]byte(small))
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.Write(body)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name, url string
		content   *string
		urls      int
		taken     bool
	}{
		{"xml content", "https://example.com/sitemap.xml", &xmlContent, n, true},
		{"text content", "https://example.com/sitemap.txt", &textContent, n, true},
		{"served", srv.URL + "/sitemap.xml", nil, n, true},
		{"served gzipped", srv.URL + "/sitemap.xml.gz", nil, n, true},
		{"small content", "https://example.com/sitemap.xml", &small, strings.Count(small, "<url>"), false},
		{"small, served gzipped", srv.URL + "/small.xml.gz", nil, strings.Count(small, "<url>"), false},
	} {
		s, err := New().SetFetchTimeout(60).Parse(tc.url, tc.content)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(s.urls) != tc.urls || !strings.HasPrefix(s.urls[tc.urls-1].Loc, fmt.Sprintf("https://example.com/p/%d/", tc.urls-1)) {
			t.Fatalf("%s: %d URLs, want %d", tc.name, len(s.urls), tc.urls)
		}
		// Copied, the URLs fill their array exactly; taken over, the
		// array has the room the estimate left.
		spare := cap(s.urls) - tc.urls
		if tc.taken && (spare == 0 || spare > tc.urls/4) {
			t.Errorf("%s: the list has room for %d more URLs, want some and at most %d", tc.name, spare, tc.urls/4)
		}
		if !tc.taken && spare != 0 {
			t.Errorf("%s: the list has room for %d more URLs, want the URLs copied into an array of their number", tc.name, spare)
		}
	}
}

// TestAloneDocumentListNotMisled: a document whose URLs all come in its
// first bytes, followed by a long comment, looks at first as if it held
// many more URLs than it does: the results keep no room for those.
func TestAloneDocumentListNotMisled(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 1000 {
		fmt.Fprintf(&b, "<url><loc>https://example.com/%d</loc></url>", i)
	}
	b.WriteString("<!--" + strings.Repeat("filler ", 1<<20) + "--></urlset>")
	content := b.String()
	s, err := New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil || len(s.urls) != 1000 {
		t.Fatalf("%v, %d URLs", err, len(s.urls))
	}
	if cap(s.urls) > 1000+1000/4 {
		t.Errorf("the list has room for %d URLs, want at most 1,250", cap(s.urls))
	}
}

// TestAloneListGrowsToTheEstimate: URLs of 100 bytes each in a document of
// two million bytes, read 64 KiB at a time. The URLs move from chunks to
// one array once an eighth of the bytes are read, and the array grows once
// more at the most, to about the 20,000 URLs the document holds.
func TestAloneListGrowsToTheEstimate(t *testing.T) {
	const n, per, size = 20_000, 100, 2_000_000
	var at int64
	var d docBuf
	d.sizeFrom(func() int64 { return at }, size, false, 0)
	growths := 0
	for i := range n {
		read := (i*per/(64<<10) + 1) * (64 << 10)
		at = int64(min(read, size))
		before := cap(d.list)
		d.addURL(URL{Loc: "x"})
		if cap(d.list) != before {
			growths++
		}
	}
	if spare := cap(d.list) - n; growths > 2 || spare < 0 || spare > n/8 {
		t.Errorf("%d growths, room for %d URLs more; want at most 2 growths and %d more", growths, spare, n/8)
	}
}

// TestAloneDocumentURLLimit: the array of a document read alone is never
// sized past the URL limit, and the URLs beyond it are left out as in any
// document (MAXURLS-3).
func TestAloneDocumentURLLimit(t *testing.T) {
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, "https://example.com/p/%d\n", i)
	}
	content := b.String()
	s, err := New().SetMaxURLs(5000).Parse("https://example.com/sitemap.txt", &content)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.urls) != 5000 || cap(s.urls) > 5000 || s.urls[4999].Loc != "https://example.com/p/4999" {
		t.Errorf("%d URLs in room for %d, the last %q; want 5,000 in room for as many", len(s.urls), cap(s.urls), s.urls[len(s.urls)-1].Loc)
	}
	limited := false
	for _, err := range s.GetErrors() {
		limited = limited || errors.Is(err, ErrMaxURLs)
	}
	if !limited {
		t.Errorf("no ErrMaxURLs among %v", s.GetErrors())
	}
}

// TestGzipPositionIsWhereTheParseIs: the read-ahead inflates a gzipped body
// some blocks ahead of the parse, and below it a buffer reads 16 KiB of
// compressed bytes at a time, a large part of a body that compresses well.
// The position a document read alone sizes its array from is that of the
// bytes the parse stage has been handed: an eighth of this body, where the
// bytes read are over a fifth.
func TestGzipPositionIsWhereTheParseIs(t *testing.T) {
	var plain bytes.Buffer
	for i := range 400_000 {
		fmt.Fprintf(&plain, "https://example.com/products/%d\n", i%100)
	}
	packed := fuzzGzip(plain.Bytes())
	body := &countingReader{r: bytes.NewReader(packed)}
	out, pos, _, done, err := decode(context.Background(), body, -1, 1<<30, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if _, err := io.CopyN(io.Discard, out, int64(plain.Len()/8)); err != nil {
		t.Fatal(err)
	}
	at := float64(pos()) / float64(len(packed))
	read := float64(body.n.Load()) / float64(len(packed))
	if at < 0.10 || at > 0.16 {
		t.Errorf("an eighth of the document handed on, the position is at %.3f of the body (%.3f read); want about 0.125", at, read)
	}
}

// TestGzipSmallBodyInflatedInline: a gzipped body of a known size of at
// most inlineGzip bytes is inflated on the goroutine that reads the decoded
// text, without the read-ahead; a larger one, or one of an unknown size, on
// the read-ahead's goroutine. Either way the text is the same.
func TestGzipSmallBodyInflatedInline(t *testing.T) {
	small := []byte(strings.Repeat("https://example.com/p\n", 100))
	var large bytes.Buffer
	for i := range 20_000 {
		fmt.Fprintf(&large, "https://example.com/p/%d\n", i*7919)
	}
	packedSmall, packedLarge := fuzzGzip(small), fuzzGzip(large.Bytes())
	if len(packedSmall) > inlineGzip || len(packedLarge) <= inlineGzip {
		t.Fatalf("bodies of %d and %d bytes, want one of at most %d and one larger", len(packedSmall), len(packedLarge), inlineGzip)
	}
	for _, tc := range []struct {
		name        string
		plain, body []byte
		size        int64
		ahead       bool
	}{
		{"small, size known", small, packedSmall, int64(len(packedSmall)), false},
		{"small, size unknown", small, packedSmall, -1, true},
		{"large, size known", large.Bytes(), packedLarge, int64(len(packedLarge)), true},
	} {
		body := &stackReader{r: bytes.NewReader(tc.body)}
		out, _, gzipped, done, err := decode(context.Background(), body, tc.size, 1<<30, nil)
		if err != nil || !gzipped {
			t.Fatalf("%s: %v, gzipped %v", tc.name, err, gzipped)
		}
		got, err := io.ReadAll(out)
		wire, decoded := done()
		if err != nil || !bytes.Equal(got, tc.plain) || wire != int64(len(tc.body)) || decoded != int64(len(tc.plain)) {
			t.Errorf("%s: %d bytes (%v), counted %d and %d; want the %d bytes of the text, from %d", tc.name, len(got), err, wire, decoded, len(tc.plain), len(tc.body))
		}
		// The first bytes, the gzip header among them, are read where
		// decode is called in either case.
		if body.ahead != tc.ahead || !body.inline {
			t.Errorf("%s: read on the read-ahead's goroutine: %v, on the caller's: %v; want %v and true", tc.name, body.ahead, body.inline, tc.ahead)
		}
	}
}

// stackReader tells on which goroutines r was read: the read-ahead's, or
// the caller's.
type stackReader struct {
	r             io.Reader
	ahead, inline bool
}

func (s *stackReader) Read(p []byte) (int, error) {
	buf := make([]byte, 64<<10)
	if strings.Contains(string(buf[:runtime.Stack(buf, false)]), "(*readAhead).fill") {
		s.ahead = true
	} else {
		s.inline = true
	}
	return s.r.Read(p)
}

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// The tables a document looks its dates up in are pooled between documents
// (issue 19): each document still starts with empty ones, so that the URLs
// of one never point to a date of another, however alike their dates are.
func TestDateTablesStartEmptyForEachDocument(t *testing.T) {
	srv := indexServer(t, 4, 300, func(i, j int) string { return fmt.Sprintf("2024-03-%02dT10:00:00Z", 1+j%20) }, func(i, j int) string { return "0.5" })
	s := New().SetFetchTimeout(60).SetMultiThread(false)
	for range 2 {
		if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil || s.GetErrorsCount() != 0 {
			t.Fatal(err, s.GetErrors())
		}
		owner := map[*LastModTime]string{}
		for _, u := range s.GetURLs() {
			if u.LastMod == nil {
				t.Fatalf("%s has no lastmod", u.Loc)
			}
			if o, ok := owner[u.LastMod]; ok && o != u.Source.URL() {
				t.Fatalf("%s of %s shares its date with the URLs of %s", u.Loc, u.Source.URL(), o)
			}
			owner[u.LastMod] = u.Source.URL()
		}
		if len(owner) != 4*20 {
			t.Fatalf("%d dates, want 20 a document", len(owner))
		}
	}
}

// The strings of a large document are cut from chunks that grow with it:
// few allocations, little space left unused, and every string intact.
func TestInternChunksGrowWithTheDocument(t *testing.T) {
	const n, size = 50_000, 70
	in := make([][]byte, n)
	for i := range in {
		in[i] = fmt.Appendf(nil, "https://example.com/%0*d", size-20, i)
	}
	var b docBuf
	got := make([]string, 0, n)
	chunks := testing.AllocsPerRun(1, func() {
		b = docBuf{}
		got = got[:0]
		for _, s := range in {
			got = append(got, b.intern(s))
		}
	})
	for i, s := range got {
		if s != string(in[i]) {
			t.Fatalf("string %d is %q, want %q", i, s, in[i])
		}
	}
	if chunks > 80 {
		t.Errorf("%v chunks for %d bytes, want at most 80", chunks, n*size)
	}
	if unused := b.arena.Cap() - b.arena.Len(); unused > (b.interned+b.arena.Len())/16+arenaChunk {
		t.Errorf("%d bytes unused in the last chunk, for %d interned", unused, b.interned+b.arena.Len())
	}
}

// A document read alone sizes the chunks of its strings, once its URLs have
// their array, from the strings still to come: few chunks, the last of
// them no larger than arenaChunk once the whole body is read, and every
// string intact.
func TestInternChunksSizedForAloneDocument(t *testing.T) {
	const n, per, size = 20_000, 100, 20_000 * 100
	var at int64
	var b docBuf
	b.sizeFrom(func() int64 { return at }, size, false, 0)
	got := make([]string, 0, n)
	chunks, last := 0, -1
	for i := range n {
		at = min(int64((i+1)*per+64<<10), size) // the read runs ahead of the parse
		s := b.intern(fmt.Appendf(nil, "https://example.com/%040d", i))
		b.addURL(URL{Loc: s})
		got = append(got, s)
		if b.interned != last { // a chunk has begun
			chunks, last = chunks+1, b.interned
		}
	}
	for i, s := range got {
		if want := fmt.Sprintf("https://example.com/%040d", i); s != want {
			t.Fatalf("string %d is %q, want %q", i, s, want)
		}
	}
	if b.list == nil {
		t.Fatal("the URLs have no array")
	}
	if chunks > 20 {
		t.Errorf("%d chunks for %d bytes of strings, want at most 20", chunks, b.interned+b.arena.Len())
	}
	if unused := b.arena.Cap() - b.arena.Len(); unused > arenaChunk {
		t.Errorf("%d bytes unused in the last chunk, want at most %d", unused, arenaChunk)
	}
}
