package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// PARSE-12 (open; pinned as the code has it, following the decisions that
// content passed in is located at the url given, REDIRECT-7, and that this
// url is not checked, PARSE-5): a url that gives no base (empty, relative) or one of
// another scheme leaves relative locations unresolvable, and they are
// rejected as any location without a host or of another scheme, while
// absolute ones are kept; strict mode holds locations to the host and
// protocol of that url, so a url without them admits none; robots.txt is
// told by the url as given, whatever it is. Nothing is fetched.
func TestContentWithoutUsableURL(t *testing.T) {
	doc := urlset("/rel", "https://example.com/abs")
	tests := []struct {
		url      string
		strict   bool
		urls     []string
		rejected []string
	}{
		{"", false, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"sitemap.xml", false, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"ftp://example.com/sitemap.xml", false, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"https://example.com/sitemap.xml", false, []string{"https://example.com/rel", "https://example.com/abs"}, nil},
		{"https://example.com/sitemap.xml", true, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"", true, nil, []string{"/rel", "https://example.com/abs"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/strict=%v", tt.url, tt.strict), func(t *testing.T) {
			s, tr := offline()
			if _, err := s.SetStrict(tt.strict).Parse(tt.url, &doc); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), tt.urls)
			var rejected []string
			for _, v := range errorsOf[*sitemap.ValidationError](s.GetErrors()) {
				rejected = append(rejected, v.URL)
			}
			equalStrings(t, "rejected", rejected, tt.rejected)
			if int(s.GetErrorsCount()) != len(tt.rejected) || tr.n.Load() != 0 {
				t.Errorf("errors %q, %d requests", messagesOf(s.GetErrors()), tr.n.Load())
			}
		})
	}
	robots := "Sitemap: https://example.com/a.xml\nhttps://example.com/text\n"
	for url, isRobots := range map[string]bool{"robots.txt": true, "/dir/ROBOTS.TXT": true, "ftp://example.com/robots.txt": true, "": false, "sitemap.txt": false} {
		s, _ := offline()
		if _, err := s.SetFollow([]string{`^$`}).Parse(url, &robots); err != nil {
			t.Fatalf("%q: Parse: %v", url, err)
		}
		if got := s.GetSitemapCount() == 1 && s.GetURLCount() == 0; got != isRobots {
			t.Errorf("%q: read as a robots.txt %v, want %v", url, got, isRobots)
		}
	}
}

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
			rt := &web{net: true}
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

// THREAD-2, THREAD-3, THREAD-4, THREAD-5, THREAD-9, GETURLS-4, ERRORS-12:
// while Parse waits for the answer of a sitemap (fetch), and while it reads
// one whose server has sent half of it and stalls (decode and parse), every
// getter and every setter returns at once; the getters give what has been
// collected so far, without the URLs of the half-read sitemap; slices taken
// then never change; the limits set meanwhile do not reach the running
// call, but the next one.
func TestGettersAndSettersDoNotWaitForParse(t *testing.T) {
	noAnswer, halfBody := newGate(t), newGate(t)
	head := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
		"<url><loc>https://example.com/s1</loc></url><url><loc>https://example.com/s2</loc></url>\n" +
		// Past the few KiB a reader may look ahead to tell the format, so
		// that the two URLs above are read before the parser waits.
		"<!-- " + strings.Repeat("padding ", 1024) + "-->\n"
	tail := "<url><loc>https://example.com/s3</loc></url></urlset>"
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("{base}/a.xml", "{base}/missing.xml", "{base}/late.xml", "{base}/slow.xml")},
		"/a.xml":     {Body: urlset("https://example.com/a1", "https://example.com/a2")},
		"/late.xml":  {Handler: noAnswer.handler(func() string { return urlset("https://example.com/late") })},
		"/slow.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, head)
			w.(http.Flusher).Flush()
			if halfBody.Wait(r) {
				io.WriteString(w, tail)
			}
		}},
	})
	// The client has read the first half of slow.xml once a body has given
	// the bytes of head (the others are shorter).
	headRead := make(chan struct{})
	var once sync.Once
	tr := &web{net: true, wrap: func(r io.Reader) io.Reader {
		return &readGate{r: r, after: len(head), passed: func() { once.Do(func() { close(headRead) }) }}
	}}
	s := sitemap.New().SetMultiThread(false).SetHTTPClient(tr.Client())
	done := make(chan error, 1)
	go func() { _, err := s.Parse(srv.At("/index.xml"), nil); done <- err }()

	var midURLs []sitemap.URL
	var midErrs []error
	getters := func(wantURLs []string, wantErrs int) {
		t.Helper()
		guard(t, guardTimeout, func() {
			midURLs, midErrs = s.GetURLs(), s.GetErrors()
			if got := locsOf(midURLs); !slices.Equal(got, wantURLs) {
				t.Errorf("GetURLs() during Parse = %q, want %q", got, wantURLs)
			}
			if n := int(s.GetURLCount()); n != len(wantURLs) {
				t.Errorf("GetURLCount() = %d", n)
			}
			if n := len(slices.Collect(s.URLs())); n != len(wantURLs) {
				t.Errorf("URLs() yields %d", n)
			}
			if n := len(s.GetRandomURLs(10)); n != len(wantURLs) {
				t.Errorf("GetRandomURLs(10) = %d URLs", n)
			}
			if n := s.GetSitemapCount(); n != 4 || len(s.GetSitemaps()) != 4 {
				t.Errorf("GetSitemapCount() = %d, want 4", n)
			}
			if len(midErrs) != wantErrs || int(s.GetErrorsCount()) != wantErrs || len(slices.Collect(s.Errors())) != wantErrs {
				t.Errorf("GetErrors() during Parse = %q, want the 404 of missing.xml", messagesOf(midErrs))
			}
			_ = s.GetUserAgent()
			_ = s.GetFetchTimeout()
			_ = s.GetMaxResponseSize()
			_ = s.GetMaxDepth()
			_ = s.GetMaxConcurrency()
			_ = s.GetMaxSitemaps()
			_ = s.GetMaxURLs()
			_ = s.GetMaxValidationErrors()
			_ = s.GetMultiThread()
			_ = s.GetStrict()
			_ = s.GetFollow()
			_ = s.GetRules()
			_ = s.GetHTTPClient()
			s.SetUserAgent("changed").SetFetchTimeout(5).SetMaxResponseSize(sitemap.DefaultMaxResponseSize).
				SetMaxDepth(10).SetMaxConcurrency(4).SetMultiThread(true).SetStrict(false).
				SetFollow(nil).SetRules(nil).SetHTTPClient(nil).
				// THREAD-9: fixed when a call starts.
				SetMaxSitemaps(1).SetMaxURLs(1).SetMaxValidationErrors(1)
		})
	}

	// Fetch: late.xml has not answered. One sitemap at a time: those
	// before it are done with.
	recv(t, noAnswer.entered, "the request of late.xml")
	getters([]string{"https://example.com/a1", "https://example.com/a2"}, 1)
	noAnswer.Release()

	// Decode and parse: slow.xml has sent half of its body.
	recv(t, halfBody.entered, "the request of slow.xml")
	recv(t, headRead, "the client to read the first half of slow.xml")
	// THREAD-5: the URLs of slow.xml read so far are not there yet.
	before := []string{"https://example.com/a1", "https://example.com/a2", "https://example.com/late"}
	getters(before, 1)
	halfBody.Release()

	if err := recv(t, done, "Parse"); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(before), "https://example.com/s1", "https://example.com/s2", "https://example.com/s3")
	if got := locsOf(s.GetURLs()); !slices.Equal(got, want) {
		t.Errorf("GetURLs() = %q, want %q: the limits set during the call must not apply to it", got, want)
	}
	if errs := s.GetErrors(); len(errs) != 1 {
		t.Errorf("GetErrors() = %q, want only the 404", messagesOf(errs))
	}
	if got := locsOf(midURLs); !slices.Equal(got, before) {
		t.Errorf("the slice taken during the call changed: %q", got)
	}
	if len(midErrs) != 1 {
		t.Errorf("the error slice taken during the call changed: %q", messagesOf(midErrs))
	}
	// The next call has the new limits.
	guard(t, guardTimeout, func() {
		if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
			t.Error(err)
		}
	})
	if s.GetURLCount() != 1 {
		t.Errorf("the next call collected %d URLs, want 1", s.GetURLCount())
	}
}

// THREAD-7, PARSE-11: concurrent Parse and ParseContext calls on one
// instance are serialised. Each call's request is held by the server until
// the other callers are seen parked inside ParseContext, before their calls
// start; a second request in flight meanwhile fails the test at once.
func TestConcurrentParseSerialised(t *testing.T) {
	const callers = 4
	var inFlight, most atomic.Int32
	violation := make(chan struct{}, callers)
	entered := make(chan struct{}, callers)
	release, unblock := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(unblock) }) // on failure, before the server closes
	srv := serve(t, map[string]route{"/sitemap.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n > 1 {
			violation <- struct{}{}
		}
		entered <- struct{}{}
		select {
		case <-release:
		case <-unblock:
			return
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, urlset("https://example.com/page"))
	}}})

	s := sitemap.New()
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for i := range callers {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = s.Parse(srv.At("/sitemap.xml"), nil)
			} else {
				_, err = s.ParseContext(context.Background(), srv.At("/sitemap.xml"), nil)
			}
			errs <- err
		})
	}
	guard := time.After(guardTimeout)
	for k := 1; k <= callers; k++ {
		select {
		case <-entered:
		case <-violation:
			t.Fatal("two requests of concurrent Parse calls in flight at once")
		case <-guard:
			t.Fatalf("call %d never reached the server", k)
		}
		// The others wait for this call, parked before theirs starts.
		// Blocked in ParseContext and in no request: waiting to start.
		for parked([]string{frameParse}, []string{"net/http."}) != callers-k {
			select {
			case <-violation:
				t.Fatal("two requests of concurrent Parse calls in flight at once")
			case <-guard:
				t.Fatalf("after call %d: %d callers parked, want %d", k, parked([]string{frameParse}, []string{"net/http."}), callers-k)
			default:
				runtime.Gosched()
			}
		}
		release <- struct{}{}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if most.Load() != 1 || srv.Hits("/sitemap.xml") != callers {
		t.Errorf("at most %d requests in flight (want 1), %d requests (want %d)", most.Load(), srv.Hits("/sitemap.xml"), callers)
	}
	if s.GetURLCount() != 1 || s.GetErrorsCount() != 0 {
		t.Errorf("after the calls: %d URLs, errors %q; want the one URL of the last call", s.GetURLCount(), messagesOf(s.GetErrors()))
	}
}

// THREAD-8: instances do not wait for each other: two instances have
// requests in flight at the same time, and each keeps its own results.
func TestSeparateInstancesRunInParallel(t *testing.T) {
	b := newGate(t)
	srv := serve(t, map[string]route{
		"/a.xml": {Handler: b.handler(func() string { return urlset("https://example.com/a") })},
		"/b.xml": {Handler: b.handler(func() string { return urlset("https://example.com/b1", "https://example.com/b2") })},
	})
	sa, sb := sitemap.New(), sitemap.New()
	done := make(chan error, 2)
	go func() { _, err := sa.Parse(srv.At("/a.xml"), nil); done <- err }()
	go func() { _, err := sb.Parse(srv.At("/b.xml"), nil); done <- err }()
	recv(t, b.entered, "the first instance's request")
	recv(t, b.entered, "the second instance's request while the first is open")
	b.Release()
	for range 2 {
		if err := recv(t, done, "Parse"); err != nil {
			t.Error(err)
		}
	}
	if got := locsOf(sa.GetURLs()); !slices.Equal(got, []string{"https://example.com/a"}) {
		t.Errorf("instance a: %q", got)
	}
	if got := locsOf(sb.GetURLs()); !slices.Equal(got, []string{"https://example.com/b1", "https://example.com/b2"}) {
		t.Errorf("instance b: %q", got)
	}
}

// THREAD-1, GETCONF-6: every method called from several goroutines at
// once, while multi-threaded calls run; the race detector must stay quiet
// and the lists stay consistent.
func TestEveryMethodConcurrently(t *testing.T) {
	routes := map[string]route{"/index.xml": {Body: index("{base}/1.xml", "{base}/2.xml", "{base}/3.xml", "{base}/4.xml", "{base}/missing.xml")}}
	for i := 1; i <= 4; i++ {
		routes[fmt.Sprintf("/%d.xml", i)] = route{Body: urlset(fmt.Sprintf("{base}/%d/a", i), fmt.Sprintf("{base}/%d/b", i), "ftp://example.com/x")}
	}
	srv := serve(t, routes)
	s := sitemap.New().SetMaxConcurrency(2)
	stop := make(chan struct{})
	var readers, parsers sync.WaitGroup
	for range 2 {
		parsers.Go(func() {
			for i := range 3 {
				var err error
				if i%2 == 0 {
					_, err = s.Parse(srv.At("/index.xml"), nil)
				} else {
					_, err = s.ParseContext(context.Background(), srv.At("/index.xml"), nil)
				}
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	for r := range 4 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				urls := s.GetURLs()
				for _, u := range urls {
					_ = u.Loc
				}
				for u := range s.URLs() {
					u.Loc = "mine"
				}
				for range s.Errors() {
				}
				_ = s.GetRandomURLs(3)
				sms := s.GetSitemaps()
				if len(sms) > 0 {
					sms[0].Loc = "mine"
				}
				_, _, _ = s.GetURLCount(), s.GetSitemapCount(), s.GetErrorsCount()
				_ = s.GetErrors()
				_, _, _, _ = s.GetUserAgent(), s.GetFetchTimeout(), s.GetMaxResponseSize(), s.GetMaxDepth()
				_, _, _, _ = s.GetMaxConcurrency(), s.GetMaxSitemaps(), s.GetMaxURLs(), s.GetMaxValidationErrors()
				_, _, _, _, _ = s.GetMultiThread(), s.GetStrict(), s.GetFollow(), s.GetRules(), s.GetHTTPClient()
				s.SetUserAgent(fmt.Sprintf("agent-%d", r)).SetFetchTimeout(3).SetMaxResponseSize(1 << 20).
					SetMaxDepth(5).SetMaxConcurrency(r%3 + 1).SetMaxSitemaps(0).SetMaxURLs(0).
					SetMaxValidationErrors(0).SetMultiThread(r%2 == 0).SetStrict(false).
					SetFollow([]string{`\.xml$`}).SetRules(nil).SetHTTPClient(nil)
				runtime.Gosched() // leave the parsers room to run
			}
		})
	}
	parsers.Wait()
	close(stop)
	readers.Wait()
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	if s.GetURLCount() != 8 || len(s.GetURLs()) != 8 || s.GetSitemapCount() != 5 {
		t.Errorf("after the storm: %d URLs, %d sitemaps; want 8 and 5", s.GetURLCount(), s.GetSitemapCount())
	}
	var nets int
	for _, err := range s.GetErrors() {
		var ne *sitemap.NetworkError
		if errors.As(err, &ne) {
			nets++
		}
	}
	if nets != 1 || s.GetErrorsCount() != 5 {
		t.Errorf("errors %q, want the 404 and four validation errors", messagesOf(s.GetErrors()))
	}
}
