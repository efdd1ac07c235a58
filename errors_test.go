package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

// ERRORS-2, ERRORS-3, ERRORS-4, ERRORS-5, ERRORS-7, ERRORS-8, ERRORS-13,
// ERRORS-14, and the decision on error shapes: each type's message, its
// fields and its Unwrap.
func TestErrorTypesShape(t *testing.T) {
	cause := errors.New("the cause")
	cases := []struct {
		err  error
		want string
	}{
		{&sitemap.ConfigError{Field: "maxDepth", Err: cause}, `config "maxDepth": the cause`},
		{&sitemap.NetworkError{URL: "https://example.com/s.xml", Err: cause}, `fetch "https://example.com/s.xml": the cause`},
		{&sitemap.ParseError{URL: "https://example.com/s.xml", Err: cause}, `parse "https://example.com/s.xml": the cause`},
		{&sitemap.ValidationError{URL: "https://example.com/p", Err: cause}, `validate "https://example.com/p": the cause`},
		// A URL that needs quoting is quoted as Go quotes it.
		{&sitemap.ParseError{URL: `https://example.com/"q"`, Err: cause}, `parse "https://example.com/\"q\"": the cause`},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%T", c.err), func(t *testing.T) {
			if got := c.err.Error(); got != c.want {
				t.Errorf("Error() = %q, want %q", got, c.want)
			}
			if got := errors.Unwrap(c.err); got != cause {
				t.Errorf("Unwrap() = %v, want the cause", got)
			}
			wrapped := fmt.Errorf("outer: %w", c.err)
			if !errors.Is(wrapped, cause) {
				t.Error("errors.Is does not reach the cause")
			}
			var (
				ce *sitemap.ConfigError
				ne *sitemap.NetworkError
				pe *sitemap.ParseError
				ve *sitemap.ValidationError
			)
			n := 0
			for _, ok := range []bool{errors.As(wrapped, &ce), errors.As(wrapped, &ne), errors.As(wrapped, &pe), errors.As(wrapped, &ve)} {
				if ok {
					n++
				}
			}
			if n != 1 {
				t.Errorf("errors.As matches %d of the four types, want 1", n)
			}
		})
	}
}

// ERRORS-4, ERRORS-5, ERRORS-7, REDIRECT-4, REDIRECT-9, TOLERANT-11: the
// fields of the errors a call records: a *NetworkError names the URL
// requested, a *ParseError the URL the document was served from, a
// *ValidationError the rejected URL or the page or sitemap a value belongs
// to.
func TestErrorFieldsFromACall(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml":        {Body: index("{base}/missing.xml", "{base}/redirect-404.xml", "{base}/moved-html.xml", "{base}/pages.xml", "{base}/error.xml")},
		"/redirect-404.xml": {Status: 302, Header: map[string]string{"Location": "{base}/gone.xml"}},
		"/moved-html.xml":   {Status: 301, Header: map[string]string{"Location": "{base}/page.html"}},
		"/page.html":        {Body: "<html><body>hello</body></html>"},
		"/error.xml":        {Status: 500, Body: "oops"},
		"/pages.xml": {Body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>ftp://example.com/file</loc></url>` +
			`<url><loc>{base}/dated</loc><lastmod>2024-01-15 10:30:00</lastmod></url>` +
			`<url><lastmod>2024-01-15</lastmod></url>` +
			`</urlset>`},
	})
	s := sitemap.New().SetMultiThread(false)
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	errs := s.GetErrors()
	want := []string{
		`fetch "` + srv.At("") + `/missing.xml": unexpected HTTP status 404 Not Found`,
		`fetch "` + srv.At("") + `/redirect-404.xml": unexpected HTTP status 404 Not Found`,
		`parse "` + srv.At("") + `/page.html": not a sitemap: root element <html> is none of urlset, sitemapindex, rss, RDF or feed`,
		`validate "ftp://example.com/file": unsupported scheme "ftp"`,
		`validate "` + srv.At("") + `/dated": invalid <lastmod> value "2024-01-15 10:30:00"`,
		`validate "` + srv.At("") + `/pages.xml": <loc> of an entry is empty or missing`,
		`fetch "` + srv.At("") + `/error.xml": unexpected HTTP status 500 Internal Server Error`,
	}
	if got := messagesOf(errs); !slices.Equal(got, want) {
		t.Fatalf("errors\n%q\nwant\n%q", got, want)
	}
	nets := errorsOf[*sitemap.NetworkError](errs)
	if len(nets) != 3 || nets[0].URL != srv.At("/missing.xml") || nets[1].URL != srv.At("/redirect-404.xml") {
		t.Errorf("NetworkErrors %+v", nets)
	}
	parses := errorsOf[*sitemap.ParseError](errs)
	if len(parses) != 1 || parses[0].URL != srv.At("/page.html") || parses[0].Err == nil {
		t.Errorf("ParseErrors %+v", parses)
	}
	vals := errorsOf[*sitemap.ValidationError](errs)
	if len(vals) != 3 || vals[0].URL != "ftp://example.com/file" || vals[1].URL != srv.At("/dated") || vals[2].URL != srv.At("/pages.xml") {
		t.Errorf("ValidationErrors %+v", vals)
	}
	for _, v := range vals {
		if v.Err == nil {
			t.Errorf("%v has no cause", v)
		}
	}
}

// LIMITERR-1: five distinct sentinels.
func TestSentinels(t *testing.T) {
	for i, a := range sentinels {
		if a.err == nil || a.err.Error() == "" {
			t.Errorf("%s is nil or has no message", a.name)
			continue
		}
		for _, b := range sentinels[i+1:] {
			if errors.Is(a.err, b.err) || errors.Is(b.err, a.err) || a.err.Error() == b.err.Error() {
				t.Errorf("%s and %s cannot be told apart", a.name, b.name)
			}
		}
	}
}

// ERRORS-16 (decisions): the messages the spec leaves open keep the shapes
// the project chose (config "field": …, fetch "URL": …, parse "URL": …,
// validate "URL": …) with the causes it fixed: a status other than 200, a
// document that is empty or not a sitemap, gzip that cannot be
// decompressed, a call cut short, an encoding that cannot be read.
func TestMessagesOfOpenErrors(t *testing.T) {
	srv := newServer(t)
	srv.Doc("/big.xml", urlset("https://example.com/"+strings.Repeat("a", 200)))
	srv.Doc("/s.xml", urlset("https://example.com/s"))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	str := func(s string) *string { return &s }
	const doc = "https://example.com/doc.xml"
	tests := []struct {
		name    string
		parse   func() (*sitemap.S, error)
		typ     string // the type of the error
		message string // the message, or its beginning when prefix is set
		prefix  bool
		is      error
	}{
		{"HTTP status", func() (*sitemap.S, error) { return sitemap.New().Parse(srv.At("/missing.xml"), nil) },
			"*sitemap.NetworkError", `fetch "` + srv.At("/missing.xml") + `": unexpected HTTP status 404 Not Found`, false, nil},
		{"configuration", func() (*sitemap.S, error) {
			s := sitemap.New().SetMaxDepth(0)
			return s, s.GetErrors()[0]
		}, "*sitemap.ConfigError", `config "maxDepth": `, true, nil},
		{"response over the size limit", func() (*sitemap.S, error) {
			return sitemap.New().SetMaxResponseSize(100).Parse(srv.At("/big.xml"), nil)
		}, "*sitemap.NetworkError", `fetch "` + srv.At("/big.xml") + `": `, true, sitemap.ErrMaxResponseSize},
		{"content over the size limit once decompressed", func() (*sitemap.S, error) {
			return sitemap.New().SetMaxResponseSize(1000).Parse(doc, str(string(gzipOf(strings.Repeat("https://example.com/a\n", 100)))))
		}, "*sitemap.ParseError", `parse "` + doc + `": `, true, sitemap.ErrMaxResponseSize},
		{"gzip with a broken header", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str("\x1f\x8bnot gzip at all")) },
			"*sitemap.ParseError", `parse "` + doc + `": gzip decompression failed: `, true, nil},
		{"empty", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str(" \n")) },
			"*sitemap.ParseError", `parse "` + doc + `": document is empty`, false, nil},
		{"XML that is no sitemap", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str("<html><body/></html>")) },
			"*sitemap.ParseError", `parse "` + doc + `": not a sitemap: `, true, nil},
		{"text that is no sitemap", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str("hello\nworld\n")) },
			"*sitemap.ParseError", `parse "` + doc + `": not a sitemap: `, true, nil},
		{"invalid url", func() (*sitemap.S, error) { return sitemap.New().Parse("ftp://example.com/s.xml", nil) },
			"*sitemap.ValidationError", `validate "ftp://example.com/s.xml": unsupported scheme "ftp"`, false, nil},
		{"call cut short", func() (*sitemap.S, error) {
			return sitemap.New().ParseContext(cancelled, srv.At("/index.xml"), str(index(srv.At("/s.xml"))))
		}, "*sitemap.ParseError", `parse "` + srv.At("/index.xml") + `": context canceled`, false, context.Canceled},
		{"unsupported encoding", func() (*sitemap.S, error) {
			return sitemap.New().Parse(doc, str(`<?xml version="1.0" encoding="x-no-such-encoding"?><urlset/>`))
		}, "*sitemap.ParseError", `parse "` + doc + `": unsupported encoding "x-no-such-encoding"`, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.parse()
			if err == nil {
				t.Fatal("no error")
			}
			if got := fmt.Sprintf("%T", err); got != tt.typ {
				t.Errorf("error of type %s, want %s", got, tt.typ)
			}
			if msg := err.Error(); tt.prefix && !strings.HasPrefix(msg, tt.message) || !tt.prefix && msg != tt.message {
				t.Errorf("message %q, want %q", msg, tt.message)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not wrap %v", err, tt.is)
			}
			if !slices.Contains(s.GetErrors(), err) {
				t.Errorf("GetErrors() %q does not hold it", messagesOf(s.GetErrors()))
			}
		})
	}
}
