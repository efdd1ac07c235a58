package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

// checkRootError checks what PARSE-9 asks of the error Parse returned
// about the document at url: it is the very value GetErrors holds, the only
// error of the call, and nothing was collected.
func checkRootError(t *testing.T, s *sitemap.S, err error) {
	t.Helper()
	errs := s.GetErrors()
	if len(errs) != 1 || errs[0] != err {
		t.Errorf("GetErrors() = %q, want only the error returned (%v)", messagesOf(errs), err)
	}
	if s.GetURLCount() != 0 || s.GetSitemapCount() != 0 {
		t.Errorf("%d URLs and %d sitemaps collected from a document that failed", s.GetURLCount(), s.GetSitemapCount())
	}
}

// PARSE-1, PARSE-11: Parse and ParseContext return their instance,
// whatever happens.
func TestParseReturnsInstance(t *testing.T) {
	good, bad := urlset("https://example.com/a"), "<html/>"
	cases := []struct {
		name    string
		s       *sitemap.S
		url     string
		content *string
	}{
		{"success", sitemap.New(), "https://example.com/s.xml", &good},
		{"parse error", sitemap.New(), "https://example.com/s.xml", &bad},
		{"invalid url", sitemap.New(), "ftp://example.com/s.xml", nil},
		{"configuration error", sitemap.New().SetMaxDepth(0), "https://example.com/s.xml", &good},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := c.s.Parse(c.url, c.content); got != c.s {
				t.Errorf("Parse returned %p, want %p", got, c.s)
			}
			if got, _ := c.s.ParseContext(context.Background(), c.url, c.content); got != c.s {
				t.Errorf("ParseContext returned %p, want %p", got, c.s)
			}
		})
	}
}

// PARSE-2, PARSE-3, PARSE-4, REDIRECT-7: the url may be a robots.txt, a
// sitemap index or a urlset; with content given, nothing is fetched for it,
// the content is located at the url, and what it lists is fetched.
func TestParseDocumentKinds(t *testing.T) {
	srv := serve(t, map[string]route{
		"/robots.txt": {Body: "Sitemap: {base}/index.xml\n"},
		"/index.xml":  {Body: index("{base}/urls.xml")},
		"/urls.xml":   {Body: urlset("{base}/page", "/relative")},
	})
	want := []string{srv.At("/page"), srv.At("/relative")}
	for _, path := range []string{"/robots.txt", "/index.xml", "/urls.xml"} {
		for _, given := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s content given=%v", path, given), func(t *testing.T) {
				var content *string
				if given {
					resp, err := http.Get(srv.At(path))
					if err != nil {
						t.Fatal(err)
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					c := string(b)
					content = &c
				}
				before := srv.Hits(path)
				s, err := sitemap.New().Parse(srv.At(path), content)
				if err != nil {
					t.Fatal(err)
				}
				if got := locsOf(s.GetURLs()); !slices.Equal(got, want) {
					t.Errorf("URLs %q, want %q", got, want)
				}
				wantHits := 1
				if given {
					wantHits = 0
				}
				if got := srv.Hits(path) - before; got != wantHits {
					t.Errorf("%s requested %d times, want %d", path, got, wantHits)
				}
			})
		}
	}
}

// PARSE-5, PARSE-9, REUSE-3: a url that is no HTTP or HTTPS URL with a host
// is a *ValidationError when it is to be fetched, and nothing is requested.
func TestParseInvalidURL(t *testing.T) {
	cases := []struct {
		url  string
		want string // the message, when the spec's wording fixes it
	}{
		{"ftp://example.com/sitemap.xml", `validate "ftp://example.com/sitemap.xml": unsupported scheme "ftp"`},
		{"file:///etc/passwd", ""},
		{"mailto:someone@example.com", ""},
		{"example.com/sitemap.xml", ""},
		{"/sitemap.xml", ""},
		{"", ""},
		{"https:///sitemap.xml", `validate "https:///sitemap.xml": missing host`},
		{"https://:8080/sitemap.xml", `validate "https://:8080/sitemap.xml": missing host`},
		{"https:page", `validate "https:page": missing host`},
		{"http://[::1", ""},
		{"https://example.com/%zz", ""},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			rt := &countingTransport{}
			s := sitemap.New().SetHTTPClient(&http.Client{Transport: rt})
			content := urlset("https://example.com/previous")
			if _, err := s.Parse("https://example.com/previous.xml", &content); err != nil {
				t.Fatal(err)
			}
			_, err := s.Parse(c.url, nil)
			var ve *sitemap.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Parse(%q) = %v (%T), want a *ValidationError", c.url, err, err)
			}
			if ve.URL != c.url || ve.Err == nil {
				t.Errorf("URL %q, Err %v; want the url passed and a cause", ve.URL, ve.Err)
			}
			if c.want != "" && err.Error() != c.want {
				t.Errorf("message %q, want %q", err.Error(), c.want)
			}
			checkRootError(t, s, err)
			if rt.n.Load() != 0 {
				t.Errorf("%d requests made", rt.n.Load())
			}
		})
	}
}

// PARSE-5, PARSE-12: the url is checked only when its content is to be
// fetched: content passed in is parsed whatever the url.
func TestParseContentURLUnchecked(t *testing.T) {
	content := urlset("https://example.com/page")
	for _, url := range []string{"ftp://example.com/sitemap.xml", "", "https:///sitemap.xml"} {
		s, err := sitemap.New().Parse(url, &content)
		if err != nil {
			t.Errorf("Parse(%q, content) = %v", url, err)
			continue
		}
		if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{"https://example.com/page"}) {
			t.Errorf("Parse(%q, content): URLs %q", url, got)
		}
	}
}

// PARSE-6, PARSE-9, ERRORS-4, REDIRECT-9, MAXSIZE-2, MAXSIZE-5: a document
// that cannot be fetched is a *NetworkError naming the URL requested.
func TestParseNetworkError(t *testing.T) {
	half := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url><url>`
	big := urlset("https://example.com/page") + strings.Repeat(" ", 4096)
	srv := serve(t, map[string]route{
		"/error.xml":      {Status: 500, Body: urlset("https://example.com/a")},
		"/forbidden.xml":  {Status: 403},
		"/no-content.xml": {Status: 204},
		"/moved.xml":      {Status: 301, Header: map[string]string{"Location": "{base}/gone.xml"}},
		"/loop.xml":       {Status: 302, Header: map[string]string{"Location": "{base}/loop.xml"}},
		"/cut.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000") // under the size limit
			io.WriteString(w, half)
		}},
		"/big-declared.xml": {Body: big},
		"/big-chunked.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
			w.(http.Flusher).Flush() // no Content-Length: chunked
			io.WriteString(w, big)
		}},
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	refused := closed.URL + "/sitemap.xml"
	closed.Close()

	cases := []struct {
		name, url string
		want      string // the message, for the status errors the decisions fix
		sizeLimit bool
	}{
		{"404", srv.At("/missing.xml"), `fetch "` + srv.At("") + `/missing.xml": unexpected HTTP status 404 Not Found`, false},
		{"500", srv.At("/error.xml"), `fetch "` + srv.At("") + `/error.xml": unexpected HTTP status 500 Internal Server Error`, false},
		{"403", srv.At("/forbidden.xml"), `fetch "` + srv.At("") + `/forbidden.xml": unexpected HTTP status 403 Forbidden`, false},
		{"204", srv.At("/no-content.xml"), `fetch "` + srv.At("") + `/no-content.xml": unexpected HTTP status 204 No Content`, false},
		{"redirect to 404", srv.At("/moved.xml"), `fetch "` + srv.At("") + `/moved.xml": unexpected HTTP status 404 Not Found`, false},
		{"redirect loop", srv.At("/loop.xml"), "", false},
		{"connection refused", refused, "", false},
		{"body cut short", srv.At("/cut.xml"), "", false},
		{"over the size limit, declared", srv.At("/big-declared.xml"), "", true},
		{"over the size limit, chunked", srv.At("/big-chunked.xml"), "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sitemap.New().SetMaxResponseSize(1024)
			_, err := s.Parse(c.url, nil)
			var ne *sitemap.NetworkError
			if !errors.As(err, &ne) {
				t.Fatalf("Parse() = %v (%T), want a *NetworkError", err, err)
			}
			if ne.URL != c.url || ne.Err == nil {
				t.Errorf("URL %q, Err %v; want the URL requested and a cause", ne.URL, ne.Err)
			}
			if c.want != "" && err.Error() != c.want {
				t.Errorf("message %q, want %q", err.Error(), c.want)
			}
			if got := errors.Is(err, sitemap.ErrMaxResponseSize); got != c.sizeLimit {
				t.Errorf("errors.Is(ErrMaxResponseSize) = %v, want %v", got, c.sizeLimit)
			}
			checkRootError(t, s, err)
		})
	}
}

// gzipTruncated is a gzip stream cut before its end.
func gzipTruncated(t *testing.T) string {
	gz := string(gzipOf(urlset("https://example.com/a", "https://example.com/b")))
	return gz[:len(gz)-12]
}

// PARSE-7, PARSE-9, ERRORS-5, STRICT-13, GZIP-4, MAXSIZE-4, ENC-9,
// MAXSIZE-8 (decision: content passed in is capped too): a document that
// cannot be parsed is a *ParseError naming the document,
// for every reason; nothing of it is kept. The same goes for content
// passed in and for content fetched (named by the URL it was served from).
func TestParseParseError(t *testing.T) {
	const ns = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`
	bigGzip := string(gzipOf(urlset("https://example.com/page") + strings.Repeat(" ", 4096)))
	cases := []struct {
		name    string
		content string
		strict  bool
		cause   string // the cause, when the spec or a decision fixes it
		is      error  // a sentinel the error wraps
		passed  bool   // only as content passed in: fetched, it is a *NetworkError
	}{
		{"HTML page", "<!DOCTYPE html>\n<html><body><a href=\"https://example.com/a\">a</a></body></html>", false, "", nil, false},
		{"unknown XML root", `<?xml version="1.0"?><catalog><url><loc>https://example.com/a</loc></url></catalog>`, false, "", nil, false},
		{"text without URLs", "hello\nworld\n# https://example.com/commented\n", false, "", nil, false},
		{"empty", "", false, "document is empty", nil, false},
		{"white space only", " \n\t\r\n  ", false, "document is empty", nil, false},
		{"empty gzip", string(gzipOf("")), false, "document is empty", nil, false},
		{"broken XML, strict", `<urlset ` + ns + `><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</lo></url></urlset>`, true, "", nil, false},
		{"unescaped ampersand, strict", `<urlset ` + ns + `><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/?a=1&b=2</loc></url></urlset>`, true, "", nil, false},
		{"truncated gzip", gzipTruncated(t), false, "gzip decompression failed: unexpected EOF", nil, false},
		{"gzip over the size limit", bigGzip, false, "", sitemap.ErrMaxResponseSize, false},
		{"content over the size limit", urlset("https://example.com/page") + strings.Repeat(" ", 4096), false, "", sitemap.ErrMaxResponseSize, true},
		{"unsupported encoding", `<?xml version="1.0" encoding="x-no-such-encoding"?><urlset ` + ns + `><url><loc>https://example.com/a</loc></url></urlset>`, false, "", nil, false},
		{"UTF-16", "\xff\xfe<\x00u\x00r\x00l\x00s\x00e\x00t\x00/\x00>\x00", false, "", nil, false},
	}
	for _, c := range cases {
		for _, fetched := range []bool{false, true} {
			if fetched && c.passed {
				continue
			}
			t.Run(fmt.Sprintf("%s fetched=%v", c.name, fetched), func(t *testing.T) {
				url := "https://example.com/doc.xml"
				var content *string
				if fetched {
					srv := serve(t, map[string]route{
						"/doc.xml":   {Handler: func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, c.content) }},
						"/moved.xml": {Status: 301, Header: map[string]string{"Location": "{base}/doc.xml"}},
					})
					url = srv.At("/doc.xml")
				} else {
					content = &c.content
				}
				s := sitemap.New().SetStrict(c.strict).SetMaxResponseSize(2048)
				_, err := s.Parse(url, content)
				var pe *sitemap.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("Parse() = %v (%T), want a *ParseError", err, err)
				}
				if pe.URL != url || pe.Err == nil {
					t.Errorf("URL %q, Err %v; want the document's URL and a cause", pe.URL, pe.Err)
				}
				if c.cause != "" && err.Error() != `parse "`+url+`": `+c.cause {
					t.Errorf("message %q, want %q", err.Error(), `parse "`+url+`": `+c.cause)
				}
				if c.is != nil && !errors.Is(err, c.is) {
					t.Errorf("%v does not wrap %v", err, c.is)
				}
				if c.name == "unsupported encoding" && !strings.Contains(err.Error(), "x-no-such-encoding") {
					t.Errorf("message %q does not name the encoding", err.Error()) // ENC-9
				}
				checkRootError(t, s, err)
				if fetched {
					// ERRORS-5: after a redirect, the URL it was served from.
					moved := strings.TrimSuffix(url, "/doc.xml") + "/moved.xml"
					_, err := s.Parse(moved, nil)
					if !errors.As(err, &pe) || pe.URL != url {
						t.Errorf("through a redirect: %v, want a *ParseError naming %s", err, url)
					}
				}
			})
		}
	}
}

// PARSE-4, PARSE-10, MAXDEPTH-7, MAXURLS-7: what goes wrong past the
// document at url never fails the call, and is in GetErrors only.
func TestParseNilErrorDespiteLaterFailures(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml":  {Body: index("{base}/urls.xml", "{base}/missing.xml", "{base}/html.xml", "{base}/nested.xml", "ftp://example.com/x.xml")},
		"/urls.xml":   {Body: urlset("{base}/1", "{base}/2", "", "{base}/3")},
		"/html.xml":   {Body: "<html/>"},
		"/nested.xml": {Body: index("{base}/deeper.xml")},
	})
	s := sitemap.New().SetMultiThread(false).SetMaxDepth(1).SetMaxURLs(2)
	_, err := s.Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse() = %v, want nil: the document at the url was fetched and parsed", err)
	}
	errs := s.GetErrors()
	if len(errs) == 0 {
		t.Fatal("no errors recorded")
	}
	var hasLimit, hasVal bool
	for _, e := range errs {
		var ve *sitemap.ValidationError
		hasVal = hasVal || errors.As(e, &ve)
		hasLimit = hasLimit || errors.Is(e, sitemap.ErrMaxURLs)
	}
	if !hasLimit || !hasVal || s.GetURLCount() != 2 {
		t.Errorf("errors %q, %d URLs; want the URL limit, the ftp entry, and 2 URLs", messagesOf(errs), s.GetURLCount())
	}
}

// PARSE-11: Parse behaves as ParseContext with context.Background().
func TestParseIsParseContextBackground(t *testing.T) {
	srv := serve(t, map[string]route{
		"/robots.txt": {Body: "Sitemap: {base}/index.xml\nSitemap: ftp://example.com/x.xml\n"},
		"/index.xml":  {Body: index("{base}/a.xml|2024-01-01T00:00:00Z", "{base}/missing.xml")},
		"/a.xml":      {Body: urlset("{base}/1", "/2", "")},
	})
	a, errA := sitemap.New().SetMultiThread(false).Parse(srv.At("/robots.txt"), nil)
	b, errB := sitemap.New().SetMultiThread(false).ParseContext(context.Background(), srv.At("/robots.txt"), nil)
	if errA != nil || errB != nil {
		t.Fatalf("errors %v, %v", errA, errB)
	}
	if !slices.Equal(locsOf(a.GetURLs()), locsOf(b.GetURLs())) ||
		!slices.Equal(sitemapLocsOf(a.GetSitemaps()), sitemapLocsOf(b.GetSitemaps())) ||
		!slices.Equal(messagesOf(a.GetErrors()), messagesOf(b.GetErrors())) {
		t.Errorf("Parse and ParseContext(Background) differ:\n%q %q %q\n%q %q %q",
			locsOf(a.GetURLs()), sitemapLocsOf(a.GetSitemaps()), messagesOf(a.GetErrors()),
			locsOf(b.GetURLs()), sitemapLocsOf(b.GetSitemaps()), messagesOf(b.GetErrors()))
	}
	if a.GetURLCount() != 2 || a.GetSitemapCount() != 3 || a.GetErrorsCount() != 3 {
		t.Errorf("%d URLs, %d sitemaps, errors %q; want 2, 3 and 3", a.GetURLCount(), a.GetSitemapCount(), messagesOf(a.GetErrors()))
	}
}
