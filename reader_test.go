package sitemap_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gositemap/sitemap"
)

// Every URL tells the sitemap it came from: the URL that sitemap was
// requested as (the listed one, not where a redirect led), in Parse, URLs,
// GetRandomURLs and Stream alike.
func TestURLSource(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/index.xml": index("/a.xml", "/moved.xml"),
		"/a.xml":     urlset("https://example.com/a1", "https://example.com/a2"),
		"/b.xml":     urlset("https://example.com/b"),
	}
	site.handlers["/moved.xml"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/b.xml", http.StatusMovedPermanently)
	}
	want := map[string]string{
		"https://example.com/a1": site.URL + "/a.xml",
		"https://example.com/a2": site.URL + "/a.xml",
		"https://example.com/b":  site.URL + "/moved.xml",
	}
	check := func(how string, u sitemap.URL) {
		t.Helper()
		if got := u.Source.URL(); got != want[u.Loc] || u.Source.String() != got {
			t.Errorf("%s: %s came from %q, want %q", how, u.Loc, got, want[u.Loc])
		}
	}
	s := sitemap.New().SetFetchTimeout(60)
	if _, err := s.Parse(site.URL+"/index.xml", nil); err != nil {
		t.Fatal(err)
	}
	urls := s.GetURLs()
	if len(urls) != 3 {
		t.Fatalf("%d URLs", len(urls))
	}
	for _, u := range urls {
		check("GetURLs", u)
	}
	for u := range s.URLs() {
		check("URLs", u)
	}
	for _, u := range s.GetRandomURLs(3) {
		check("GetRandomURLs", u)
	}
	n := 0
	for u, err := range sitemap.New().SetFetchTimeout(60).Stream(context.Background(), site.URL+"/index.xml", nil) {
		if err != nil {
			t.Fatal(err)
		}
		check("Stream", u)
		n++
	}
	if n != 3 {
		t.Errorf("Stream: %d URLs", n)
	}
	// The URLs of one document share one Source.
	var a []sitemap.Source
	for _, u := range urls {
		if strings.HasPrefix(u.Loc, "https://example.com/a") {
			a = append(a, u.Source)
		}
	}
	if len(a) != 2 || a[0] != a[1] {
		t.Errorf("the Sources of a.xml differ: %v", a)
	}
}

// Source is out of the encoding/xml form of a URL, and is its URL in
// encoding/json, which reads it back.
func TestURLSourceEncodings(t *testing.T) {
	doc := urlset("https://example.com/a")
	s := sitemap.New()
	s.Parse("https://example.com/sitemap.xml", &doc)
	u := s.GetURLs()[0]
	out, err := xml.Marshal(u)
	if err != nil || strings.Contains(string(out), "sitemap.xml") || strings.Contains(string(out), "Source") {
		t.Errorf("xml: %s %v", out, err)
	}
	js, err := json.Marshal(u)
	if err != nil || !strings.Contains(string(js), `"Source":"https://example.com/sitemap.xml"`) {
		t.Errorf("json: %s %v", js, err)
	}
	var back sitemap.URL
	if err := json.Unmarshal(js, &back); err != nil || back.Source.URL() != "https://example.com/sitemap.xml" {
		t.Errorf("json back: %v %v", back.Source, err)
	}
	var zero sitemap.Source
	if zero.URL() != "" || zero.String() != "" {
		t.Errorf("zero Source: %q", zero.URL())
	}
}

// A document given as a reader is never fetched, nor is anything else
// with Selection.RootOnly; GetSitemaps lists what it names, and the URLs of a
// gzipped one are read.
func TestParseReaderFetchesNothing(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/a.xml": urlset("https://example.com/a"),
	}
	index := []byte(index(site.URL+"/a.xml", site.URL+"/b.xml"))
	s := sitemap.New().SetFetchTimeout(60).SetSelection(sitemap.Selection{RootOnly: true})
	if !s.GetSelection().RootOnly {
		t.Error("GetSelection().RootOnly: false after SetSelection(RootOnly: true)")
	}
	if _, err := s.ParseReader(context.Background(), site.URL+"/index.xml", bytes.NewReader(index)); err != nil {
		t.Fatal(err)
	}
	if site.Total() != 0 {
		t.Errorf("%d requests, want none", site.Total())
	}
	sms := s.GetSitemaps()
	if len(sms) != 2 || sms[0].Loc != site.URL+"/a.xml" || sms[1].Loc != site.URL+"/b.xml" {
		t.Errorf("GetSitemaps: %+v", sms)
	}
	for _, d := range s.GetDocuments()[1:] {
		if d.Status != sitemap.StatusNotFollowed {
			t.Errorf("%+v", d)
		}
	}
	if len(s.GetErrors()) != 0 {
		t.Errorf("errors: %v", s.GetErrors())
	}

	// Without RootOnly, the children are the settings' to fetch.
	s = sitemap.New().SetFetchTimeout(60)
	s.ParseReader(context.Background(), site.URL+"/index.xml", bytes.NewReader(index))
	if s.GetURLCount() != 1 || site.Total() != 2 {
		t.Errorf("%d URLs and %d requests, want 1 and 2", s.GetURLCount(), site.Total())
	}

	// Gzipped bytes.
	gz := string(gzipOf(urlset("https://example.com/x", "https://example.com/y")))
	s = sitemap.New()
	if _, err := s.ParseReader(context.Background(), "https://example.com/sitemap.xml.gz", strings.NewReader(gz)); err != nil || s.GetURLCount() != 2 {
		t.Errorf("gzip: %v, %d URLs", err, s.GetURLCount())
	}
	if d := s.GetDocuments()[0]; d.WireBytes != int64(len(gz)) || d.DecodedBytes <= d.WireBytes || d.HTTPStatus != 0 {
		t.Errorf("gzip document: %+v", d)
	}
}

// Selection.RootOnly on a URL: the URL is fetched, what it lists is not.
func TestRootOnlyFetchesTheRootOnly(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/robots.txt": "Sitemap: /a.xml\n",
		"/a.xml":      urlset("https://example.com/a"),
	}
	s := sitemap.New().SetFetchTimeout(60).SetSelection(sitemap.Selection{RootOnly: true})
	if _, err := s.Parse(site.URL+"/robots.txt", nil); err != nil {
		t.Fatal(err)
	}
	if site.Total() != 1 || s.GetSitemapCount() != 1 || s.GetURLCount() != 0 || s.GetErrorsCount() != 0 {
		t.Errorf("%d requests, %d sitemaps, %d URLs, errors %v", site.Total(), s.GetSitemapCount(), s.GetURLCount(), s.GetErrors())
	}
}

func TestStreamReader(t *testing.T) {
	doc := urlset("https://example.com/a", "https://example.com/b")
	var got []string
	for u, err := range sitemap.New().StreamReader(context.Background(), "https://example.com/s.xml", strings.NewReader(doc)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Loc+" "+u.Source.URL())
	}
	if strings.Join(got, ",") != "https://example.com/a https://example.com/s.xml,https://example.com/b https://example.com/s.xml" {
		t.Errorf("%v", got)
	}
	// Stream with content can be ranged over twice, each time from the start.
	seq := sitemap.New().Stream(context.Background(), "https://example.com/s.xml", &doc)
	for range 2 {
		n := 0
		for _, err := range seq {
			if err == nil {
				n++
			}
		}
		if n != 2 {
			t.Errorf("ranged again: %d URLs", n)
		}
	}
}

// A reader that fails mid-way: the *ParseError of the document wraps its
// error; tolerant mode keeps the complete entries before it, strict mode
// rejects the document.
func TestParseReaderFailsMidway(t *testing.T) {
	boom := errors.New("disk on fire")
	doc := urlset("https://example.com/a", "https://example.com/b", "https://example.com/c")
	cut := strings.Index(doc, "https://example.com/c")
	newReader := func() io.Reader {
		return io.MultiReader(strings.NewReader(doc[:cut]), iotest.ErrReader(boom))
	}
	for _, strict := range []bool{false, true} {
		s := sitemap.New().SetStrict(strict)
		_, err := s.ParseReader(context.Background(), "https://example.com/s.xml", newReader())
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || !errors.Is(err, boom) || perr.URL != "https://example.com/s.xml" {
			t.Errorf("strict=%v: %v", strict, err)
		}
		want, status := int64(2), sitemap.StatusPartial
		if strict {
			want, status = 0, sitemap.StatusFailed
		}
		if s.GetURLCount() != want || s.GetDocuments()[0].Status != status {
			t.Errorf("strict=%v: %d URLs, %s; want %d, %s", strict, s.GetURLCount(), s.GetDocuments()[0].Status, want, status)
		}
	}
	// In a text sitemap and gzipped too.
	text := "https://example.com/a\nhttps://example.com/b\n"
	s := sitemap.New()
	_, err := s.ParseReader(context.Background(), "https://example.com/s.txt", io.MultiReader(strings.NewReader(text), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) || s.GetURLCount() != 2 {
		t.Errorf("text: %v, %d URLs", err, s.GetURLCount())
	}
	gz := string(gzipOf(doc))
	s = sitemap.New()
	_, err = s.ParseReader(context.Background(), "https://example.com/s.xml.gz", io.MultiReader(strings.NewReader(gz[:len(gz)/2]), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Errorf("gzip: %v", err)
	}
}

// endless yields the same bytes for ever.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// The size limit caps what a reader yields: an endless one ends.
func TestParseReaderEndless(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url>`), endless{})
	s := sitemap.New().SetMaxResponseSize(1 << 20)
	_, err := s.ParseReader(context.Background(), "https://example.com/s.xml", r)
	if !errors.Is(err, sitemap.ErrMaxResponseSize) {
		t.Errorf("%v", err)
	}
}

// A nil reader is a *ValidationError about the document, in both entry
// points.
func TestParseReaderNil(t *testing.T) {
	var verr *sitemap.ValidationError
	s := sitemap.New()
	if _, err := s.ParseReader(context.Background(), "https://example.com/s.xml", nil); !errors.As(err, &verr) || verr.URL != "https://example.com/s.xml" {
		t.Errorf("ParseReader: %v", err)
	}
	if d := s.GetDocuments(); len(d) != 1 || d[0].Status != sitemap.StatusFailed {
		t.Errorf("%+v", d)
	}
	for _, err := range sitemap.New().StreamReader(context.Background(), "https://example.com/s.xml", nil) {
		if !errors.As(err, &verr) {
			t.Errorf("StreamReader: %v", err)
		}
	}
}

// badCount returns a count that io.Reader forbids.
type badCount struct{ n int }

func (b badCount) Read(p []byte) (int, error) { return b.n, nil }

// A reader that returns a count io.Reader forbids is a *ParseError about
// the document, not a panic of bufio.
func TestParseReaderInvalidCount(t *testing.T) {
	for _, n := range []int{-1, 1 << 30} {
		_, err := sitemap.New().ParseReader(context.Background(), "https://example.com/s.xml", badCount{n})
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) {
			t.Errorf("count %d: %v", n, err)
		}
	}
}
