package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

// The tree of a call (GetDocuments), the source of every URL (URL.Source),
// and the documents given as readers (ParseReader, StreamReader,
// Selection.RootOnly): issue 15.

// treeByURL returns the documents by URL, less the server's address.
func treeByURL(srv *httptest.Server, docs []sitemap.Document) map[string]sitemap.Document {
	m := map[string]sitemap.Document{}
	for _, d := range docs {
		m[strings.TrimPrefix(d.URL, srv.URL)] = d
	}
	return m
}

func TestGetDocumentsOfAnIndex(t *testing.T) {
	page := strings.Repeat("https://example.com/page-with-a-long-path-", 1)
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/index.xml":  index(site.URL+"/a.xml", site.URL+"/gone.xml", site.URL+"/c.xml.gz", site.URL+"/skip.xml"),
		"/a.xml":      urlset(page+"1", page+"2"),
		"/c.xml.gz":   string(gzipOf(urlset(page+"3", page+"4", page+"5"))),
		"/skip.xml":   urlset(page + "6"),
		"/robots.txt": "",
	}
	site.headers["/index.xml"] = http.Header{"Etag": {`"v1"`}, "Last-Modified": {"Mon, 02 Jan 2006 15:04:05 GMT"}, "Content-Type": {"application/xml"}}
	s := sitemap.New().SetFetchTimeout(60).SetFollow([]string{`a\.xml$`, `gone\.xml$`, `c\.xml\.gz$`})
	if _, err := s.Parse(site.URL+"/index.xml", nil); err != nil {
		t.Fatal(err)
	}
	docs := s.GetDocuments()
	if len(docs) != 5 {
		t.Fatalf("%d documents, want 5: %+v", len(docs), docs)
	}
	byURL := treeByURL(site.Server, docs)
	root := docs[0]
	if root.URL != site.URL+"/index.xml" || root.Found != sitemap.FoundRoot || root.Parent != -1 || root.Depth != 0 ||
		root.Status != sitemap.StatusParsed || root.Err != nil || root.Format != sitemap.FormatIndex ||
		root.HTTPStatus != 200 || root.ETag != `"v1"` || root.LastModified != "Mon, 02 Jan 2006 15:04:05 GMT" ||
		root.ContentType != "application/xml" || root.FinalURL != root.URL ||
		root.WireBytes != int64(len(site.docs["/index.xml"])) || root.DecodedBytes != root.WireBytes {
		t.Errorf("root: %+v", root)
	}
	a := byURL["/a.xml"]
	if a.Found != sitemap.FoundIndex || a.Parent != 0 || a.Depth != 1 || a.Status != sitemap.StatusParsed ||
		a.Format != sitemap.FormatURLSet || a.URLs != 2 || a.Errors != 0 || a.HTTPStatus != 200 {
		t.Errorf("a.xml: %+v", a)
	}
	var nerr *sitemap.NetworkError
	gone := byURL["/gone.xml"]
	if gone.Status != sitemap.StatusFailed || gone.HTTPStatus != 404 || !errors.As(gone.Err, &nerr) || gone.Errors != 1 || gone.URLs != 0 {
		t.Errorf("gone.xml: %+v", gone)
	}
	c := byURL["/c.xml.gz"]
	if c.Status != sitemap.StatusParsed || c.URLs != 3 || c.WireBytes != int64(len(site.docs["/c.xml.gz"])) ||
		c.DecodedBytes != int64(len(urlset(page+"3", page+"4", page+"5"))) {
		t.Errorf("c.xml.gz: %+v", c)
	}
	if skip := byURL["/skip.xml"]; skip.Status != sitemap.StatusNotFollowed || skip.HTTPStatus != 0 || skip.Parent != 0 {
		t.Errorf("skip.xml: %+v", skip)
	}
	if site.Total() != 4 {
		t.Errorf("%d requests, want 4", site.Total())
	}
	// What the spec says of GetSitemaps stays true: the four it lists.
	if n := s.GetSitemapCount(); n != 4 {
		t.Errorf("GetSitemaps: %d, want 4", n)
	}
}

func TestGetDocumentsOfARobotsTxt(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/robots.txt": "User-agent: *\nSitemap: " + "/index.xml\nSitemap: /b.txt\n",
		"/index.xml":  index("/a.xml"),
		"/a.xml":      urlset("https://example.com/a"),
		"/b.txt":      "https://example.com/b\nhttps://example.com/c\n",
	}
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	if _, err := s.Parse(site.URL+"/robots.txt", nil); err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, d := range s.GetDocuments() {
		got = append(got, fmt.Sprintf("%s %s %s %d %d %s %d", strings.TrimPrefix(d.URL, site.URL), d.Found, d.Status, d.Parent, d.Depth, d.Format, d.URLs))
	}
	want := []string{
		"/robots.txt root parsed -1 0 robots 0",
		"/index.xml robots parsed 0 1 index 0",
		"/b.txt robots parsed 0 1 text 2",
		"/a.xml index parsed 1 2 urlset 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The sitemaps a limit leaves out: past the depth, left out by the fetch
// limit (a node, "limited"), left out by the listing limit (a count on the
// parent, no node).
func TestGetDocumentsLimits(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/index.xml": index("/i2.xml"),
		"/i2.xml":    index("/a.xml"),
		"/a.xml":     urlset("https://example.com/a"),
	}
	s := sitemap.New().SetFetchTimeout(60).SetMaxDepth(1)
	s.Parse(site.URL+"/index.xml", nil)
	byURL := treeByURL(site.Server, s.GetDocuments())
	if d := byURL["/a.xml"]; d.Status != sitemap.StatusLimited || !errors.Is(d.Err, sitemap.ErrMaxDepth) || d.Depth != 2 {
		t.Errorf("past the depth: %+v", d)
	}

	site.docs["/index.xml"] = index("/a.xml", "/b.xml", "/c.xml", "/d.xml", "/e.xml")
	for _, p := range []string{"/b.xml", "/c.xml", "/d.xml", "/e.xml"} {
		site.docs[p] = urlset("https://example.com" + p)
	}
	s = sitemap.New().SetFetchTimeout(60).SetMaxSitemaps(2).SetMultiThread(false)
	s.Parse(site.URL+"/index.xml", nil)
	docs := s.GetDocuments()
	if len(docs) != 3 || docs[0].LeftOut != 3 {
		t.Fatalf("listing limit 2 over 5: %d documents, %d left out; want 3 and 3: %+v", len(docs), docs[0].LeftOut, docs)
	}
	for _, d := range docs[1:] {
		if d.Status != sitemap.StatusParsed || d.URLs != 1 {
			t.Errorf("within the limit: %+v", d)
		}
	}
}

func TestGetDocumentsURLLimit(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/index.xml": index("/a.xml", "/b.xml"),
		"/a.xml":     urlset("https://example.com/a1", "https://example.com/a2"),
		"/b.xml":     urlset("https://example.com/b"),
	}
	s := sitemap.New().SetFetchTimeout(60).SetMaxURLs(2).SetMultiThread(false)
	s.Parse(site.URL+"/index.xml", nil)
	byURL := treeByURL(site.Server, s.GetDocuments())
	if a := byURL["/a.xml"]; a.Status != sitemap.StatusParsed || a.URLs != 2 {
		t.Errorf("a.xml: %+v", a)
	}
	if b := byURL["/b.xml"]; b.Status != sitemap.StatusLimited || !errors.Is(b.Err, sitemap.ErrMaxURLs) {
		t.Errorf("b.xml: %+v", b)
	}
}

// A call cut short: the sitemaps it did not reach say so, and none is left
// queued or reading once it has ended. The request of b.xml cancels the
// call, in sequential order, so c.xml is never requested.
func TestGetDocumentsNotReached(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/index.xml": index("/a.xml", "/b.xml", "/c.xml"),
		"/a.xml":     urlset("https://example.com/a"),
		"/c.xml":     urlset("https://example.com/c"),
	}
	site.handlers["/b.xml"] = func(w http.ResponseWriter, r *http.Request) {
		cancel()
		<-r.Context().Done()
	}
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	s.ParseContext(ctx, site.URL+"/index.xml", nil)
	byURL := treeByURL(site.Server, s.GetDocuments())
	if a := byURL["/a.xml"]; a.Status != sitemap.StatusParsed {
		t.Errorf("a.xml: %+v", a)
	}
	if b := byURL["/b.xml"]; b.Status != sitemap.StatusFailed {
		t.Errorf("b.xml, whose request the context ended: %+v", b)
	}
	if c := byURL["/c.xml"]; c.Status != sitemap.StatusNotReached {
		t.Errorf("c.xml: %+v", c)
	}
}

// The tree is there while the call runs: with a.xml held back, it says the
// index is parsed and a.xml is being read.
func TestGetDocumentsDuringACall(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{"/index.xml": index("/a.xml")}
	requested, release := make(chan struct{}), make(chan struct{})
	site.handlers["/a.xml"] = func(w http.ResponseWriter, r *http.Request) {
		close(requested)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.Write([]byte(urlset("https://example.com/a")))
	}
	s := sitemap.New().SetFetchTimeout(60)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Parse(site.URL+"/index.xml", nil)
	}()
	<-requested
	docs := s.GetDocuments()
	if len(docs) != 2 || docs[0].Status != sitemap.StatusParsed || docs[1].Status != sitemap.StatusReading {
		t.Errorf("during the call: %+v", docs)
	}
	close(release)
	<-done
	if docs := s.GetDocuments(); docs[1].Status != sitemap.StatusParsed || docs[1].URLs != 1 {
		t.Errorf("after the call: %+v", docs)
	}
}

// A request redirected to a sitemap the call has requested already is that
// sitemap: the document redirected is a duplicate (REDIRECT-10); the one
// redirected to first, read under the URL listed first, keeps its final URL.
func TestGetDocumentsRedirects(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/index.xml": index("/b.xml", "/a.xml"),
		"/b.xml":     urlset("https://example.com/b"),
	}
	site.handlers["/a.xml"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/b.xml", http.StatusFound)
	}
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	s.Parse(site.URL+"/index.xml", nil)
	byURL := treeByURL(site.Server, s.GetDocuments())
	if a := byURL["/a.xml"]; a.Status != sitemap.StatusDuplicate || a.FinalURL != site.URL+"/b.xml" || a.HTTPStatus != 200 {
		t.Errorf("a.xml: %+v", a)
	}
	if b := byURL["/b.xml"]; b.Status != sitemap.StatusParsed || b.URLs != 1 {
		t.Errorf("b.xml: %+v", b)
	}
}

// A document cut off keeps what was complete, and says it is partial.
func TestGetDocumentsPartial(t *testing.T) {
	doc := urlset("https://example.com/a", "https://example.com/b")
	doc = doc[:len(doc)-30]
	s := sitemap.New()
	s.Parse("https://example.com/sitemap.xml", &doc)
	docs := s.GetDocuments()
	var perr *sitemap.ParseError
	if len(docs) != 1 || docs[0].Status != sitemap.StatusPartial || !errors.As(docs[0].Err, &perr) || docs[0].URLs != 1 || docs[0].Errors != 1 {
		t.Errorf("%+v", docs)
	}
}

// Leaving a Stream loop leaves no document queued or reading.
func TestGetDocumentsStreamLeft(t *testing.T) {
	site := serveDocs(t, nil)
	site.docs = map[string]string{
		"/index.xml": index("/a.xml", "/b.xml", "/c.xml"),
		"/a.xml":     urlset("https://example.com/a1", "https://example.com/a2"),
		"/c.xml":     urlset("https://example.com/c"),
	}
	// b.xml answers only once its request is given up, so that the call is
	// still reading it when the loop leaves, however the goroutines run:
	// c.xml, after it in a call of one document at a time, is then never
	// reached.
	site.Handle("/b.xml", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-site.stop:
		}
	})
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	for u, err := range s.Stream(context.Background(), site.URL+"/index.xml", nil) {
		if err != nil || u.Loc != "https://example.com/a1" {
			t.Fatalf("first: %v %v", u.Loc, err)
		}
		break
	}
	for _, d := range s.GetDocuments() {
		if d.Status == sitemap.StatusQueued || d.Status == sitemap.StatusReading {
			t.Errorf("left %s: %+v", d.Status, d)
		}
	}
	byURL := treeByURL(site.Server, s.GetDocuments())
	if c := byURL["/c.xml"]; c.Status != sitemap.StatusNotReached {
		t.Errorf("c.xml: %+v", c)
	}
}

// The tree is a copy: changing it changes nothing of the instance's, and a
// nil or fresh instance has an empty one.
func TestGetDocumentsIsACopy(t *testing.T) {
	var nilS *sitemap.S
	if d := nilS.GetDocuments(); d == nil || len(d) != 0 {
		t.Errorf("nil *S: %v", d)
	}
	if d := sitemap.New().GetDocuments(); d == nil || len(d) != 0 {
		t.Errorf("new: %v", d)
	}
	doc := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/a.xml</loc><lastmod>2024-01-02</lastmod></sitemap></sitemapindex>`
	s := sitemap.New().SetSelection(sitemap.Selection{RootOnly: true})
	s.Parse("https://example.com/index.xml", &doc)
	docs := s.GetDocuments()
	if len(docs) != 2 || docs[1].LastMod == nil || docs[1].LastMod.Year() != 2024 {
		t.Fatalf("%+v", docs)
	}
	docs[1].LastMod.Time = docs[1].LastMod.AddDate(1, 0, 0)
	docs[1].URL = "changed"
	if again := s.GetDocuments(); again[1].URL != "https://example.com/a.xml" || again[1].LastMod.Year() != 2024 {
		t.Errorf("the copy changed the instance's: %+v", again[1])
	}
}
