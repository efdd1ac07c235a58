package sitemap_test

import (
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

var sentinels = []struct {
	name string
	err  error
}{
	{"ErrMaxResponseSize", sitemap.ErrMaxResponseSize},
	{"ErrMaxDepth", sitemap.ErrMaxDepth},
	{"ErrMaxSitemaps", sitemap.ErrMaxSitemaps},
	{"ErrMaxURLs", sitemap.ErrMaxURLs},
	{"ErrMaxValidationErrors", sitemap.ErrMaxValidationErrors},
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

// LIMITERR-2..6, MAXSIZE-4, MAXSIZE-5, MAXDEPTH-5, MAXDEPTH-6,
// MAXSITEMAPS-8, MAXURLS-6, MAXVALERR-4, ERRORS-6: each limit's error is of
// its type, names its URL, reads as the spec quotes it, wraps its own
// sentinel and no other, and does not show the sentinel's text.
func TestLimitErrors(t *testing.T) {
	big := urlset("https://example.com/page") + strings.Repeat(" ", 2000)
	srv := serve(t, map[string]route{
		"/big.xml":        {Body: big},
		"/index.xml":      {Body: index("{base}/nested.xml", "{base}/a.xml", "{base}/b.xml")},
		"/moved.xml":      {Status: 301, Header: map[string]string{"Location": "{base}/nested.xml"}},
		"/nested.xml":     {Body: index("{base}/deeper.xml")},
		"/deeper.xml":     {Body: urlset("{base}/deep")},
		"/a.xml":          {Body: urlset("{base}/a1", "{base}/a2")},
		"/b.xml":          {Body: urlset("{base}/b1")},
		"/invalid.xml":    {Body: urlset("", "ftp://example.com/x", "{base}/ok")},
		"/root-moved.xml": {Body: index("{base}/moved.xml")},
	})
	gz := string(gzipOf(big))
	cases := []struct {
		name     string
		s        *sitemap.S
		url      string
		content  *string
		returned bool // Parse returns the error
		sentinel error
		want     string // the message; {base} stands for the server
		typ      string
	}{
		{"response size", sitemap.New().SetMaxResponseSize(1000), srv.At("/big.xml"), nil, true,
			sitemap.ErrMaxResponseSize, "", "*sitemap.NetworkError"},
		{"decompressed size", sitemap.New().SetMaxResponseSize(1000), "https://example.com/s.xml.gz", &gz, true,
			sitemap.ErrMaxResponseSize, "", "*sitemap.ParseError"},
		{"depth", sitemap.New().SetMaxDepth(1).SetMultiThread(false), srv.At("/index.xml"), nil, false,
			sitemap.ErrMaxDepth, `parse "{base}/nested.xml": max recursion depth of 1 reached`, "*sitemap.ParseError"},
		// The depth error names the index by the URL it was served from.
		{"depth after a redirect", sitemap.New().SetMaxDepth(1), srv.At("/root-moved.xml"), nil, false,
			sitemap.ErrMaxDepth, `parse "{base}/nested.xml": max recursion depth of 1 reached`, "*sitemap.ParseError"},
		{"sitemaps", sitemap.New().SetMaxSitemaps(1).SetMultiThread(false), srv.At("/index.xml"), nil, false,
			sitemap.ErrMaxSitemaps, `parse "{base}/index.xml": limit of 1 sitemaps reached`, "*sitemap.ParseError"},
		{"URLs", sitemap.New().SetMaxURLs(1).SetMultiThread(false).SetFollow([]string{`/a\.xml`}), srv.At("/index.xml"), nil, false,
			sitemap.ErrMaxURLs, `parse "{base}/index.xml": limit of 1 URLs reached`, "*sitemap.ParseError"},
		{"validation errors", sitemap.New().SetMaxValidationErrors(1), srv.At("/invalid.xml"), nil, false,
			sitemap.ErrMaxValidationErrors, `parse "{base}/invalid.xml": limit of 1 validation errors reached`, "*sitemap.ParseError"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.s.Parse(c.url, c.content)
			var found []error
			for _, e := range c.s.GetErrors() {
				if errors.Is(e, c.sentinel) {
					found = append(found, e)
				}
			}
			if len(found) != 1 {
				t.Fatalf("%d errors wrap the sentinel, want 1: %q", len(found), messagesOf(c.s.GetErrors()))
			}
			e := found[0]
			if c.returned {
				if err != e {
					t.Errorf("Parse() returned %v, want the limit error %v", err, e) // LIMITERR-5
				}
				if !errors.Is(err, c.sentinel) {
					t.Errorf("errors.Is(Parse's error, sentinel) = false")
				}
			} else if err != nil {
				t.Errorf("Parse() = %v: reaching this limit does not fail the call", err)
			}
			if got := fmt.Sprintf("%T", e); got != c.typ {
				t.Errorf("type %s, want %s", got, c.typ)
			}
			if c.want != "" {
				if want := strings.ReplaceAll(c.want, "{base}", srv.At("")); e.Error() != want {
					t.Errorf("message %q, want %q", e.Error(), want)
				}
			}
			for _, other := range sentinels {
				if other.err != c.sentinel && errors.Is(e, other.err) {
					t.Errorf("the error wraps %s as well", other.name)
				}
				if strings.Contains(e.Error(), other.err.Error()) {
					t.Errorf("message %q shows the text of %s", e.Error(), other.name) // LIMITERR-6
				}
			}
			// The URL field: the root, or the index for the depth limit.
			var pe *sitemap.ParseError
			var ne *sitemap.NetworkError
			switch {
			case errors.As(e, &ne):
				if ne.URL != c.url {
					t.Errorf("NetworkError.URL = %q, want %q", ne.URL, c.url)
				}
			case errors.As(e, &pe):
				want := c.url
				if c.sentinel == sitemap.ErrMaxDepth {
					want = srv.At("/nested.xml")
				}
				if pe.URL != want {
					t.Errorf("ParseError.URL = %q, want %q", pe.URL, want)
				}
			}
		})
	}
}

// ERRORS-9, MAXVALERR-7: no more *ValidationError values than the limit,
// the errors of the other types all the same.
func TestValidationLimitKeepsOtherErrors(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("", "ftp://example.com/x.xml", "https:///y.xml", "{base}/m1.xml", "{base}/m2.xml", "{base}/html.xml")},
		"/html.xml":  {Body: "<html/>"},
	})
	s := sitemap.New().SetMaxValidationErrors(1)
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	errs := s.GetErrors()
	vals := errorsOf[*sitemap.ValidationError](errs)
	nets := errorsOf[*sitemap.NetworkError](errs)
	parses := errorsOf[*sitemap.ParseError](errs)
	if len(vals) != 1 || len(nets) != 2 || len(parses) != 2 {
		t.Errorf("%d validation, %d network, %d parse errors; want 1, 2, 2: %q", len(vals), len(nets), len(parses), messagesOf(errs))
	}
}

// ERRORS-10, ERRORS-11, ERRORS-12, ERRORS-15 (decision on the order:
// *ConfigError values first): GetErrors returns the list the instance
// keeps, without spare capacity, and a slice once returned never changes:
// not when a setter records or clears an error, not when a call starts.
func TestGetErrorsList(t *testing.T) {
	srv := serve(t, map[string]route{
		// Three errors recorded one by one: a list grown by append would
		// have room to spare.
		"/index.xml": {Body: index("{base}/m1.xml", "{base}/m2.xml", "{base}/m3.xml")},
	})
	s := sitemap.New().SetMultiThread(false)
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	a, b := s.GetErrors(), s.GetErrors()
	if len(a) != 3 {
		t.Fatalf("errors %q, want 3", messagesOf(a))
	}
	if &a[0] != &b[0] {
		t.Error("two GetErrors() calls return different arrays: the list is copied")
	}
	if cap(a) != len(a) {
		t.Errorf("cap %d, len %d", cap(a), len(a))
	}
	want := messagesOf(a)
	first := a[0]
	c := append(a, errors.New("appended"))
	c[0] = errors.New("set in the appended copy")
	if s.GetErrorsCount() != 3 || s.GetErrors()[0] != first {
		t.Errorf("appending to the result reached the instance: %q", messagesOf(s.GetErrors()))
	}
	// ERRORS-1: a configuration error recorded now comes first.
	s.SetMaxURLs(-1)
	now := s.GetErrors()
	var ce *sitemap.ConfigError
	if len(now) != 4 || !errors.As(now[0], &ce) || now[1] != a[0] || now[2] != a[1] || now[3] != a[2] {
		t.Errorf("after SetMaxURLs(-1): %q, want the *ConfigError then the call's three errors", messagesOf(now))
	}
	s.SetMaxURLs(0)
	if got := messagesOf(s.GetErrors()); !slices.Equal(got, want) {
		t.Errorf("after clearing it: %q, want %q", got, want)
	}
	s.SetMaxSitemaps(-1).SetMaxSitemaps(0)
	if _, err := s.Parse("ftp://example.com/x", nil); err == nil {
		t.Fatal("Parse of an ftp URL did not fail")
	}
	if got := messagesOf(a); !slices.Equal(got, want) || a[0] != first {
		t.Errorf("a slice returned earlier changed: %q", got)
	}
	if got := messagesOf(now); len(got) != 4 {
		t.Errorf("a slice returned earlier changed: %q", got)
	}
}

// ERRORS-1, ERRITER-1, ERRITER-2, ERRITER-3, COUNT-3: Errors() yields the
// values GetErrors returns, in order, the error Parse returned among them
// (==); a collected list is the caller's own.
func TestErrorsIterator(t *testing.T) {
	content := urlset("", "{bad}", "https://example.com/ok")
	content = strings.Replace(content, "{bad}", "https:///nohost", 1)
	s := sitemap.New()
	if _, err := s.Parse("https://example.com/sitemap.xml", &content); err != nil {
		t.Fatal(err)
	}
	s.SetFollow([]string{"("}) // a configuration error, first in the list
	errs := s.GetErrors()
	if len(errs) != 3 || s.GetErrorsCount() != 3 {
		t.Fatalf("errors %q, want 3", messagesOf(errs))
	}
	var ce *sitemap.ConfigError
	if !errors.As(errs[0], &ce) {
		t.Errorf("the first error is %T, want the *ConfigError", errs[0])
	}
	got := slices.Collect(s.Errors())
	if len(got) != len(errs) {
		t.Fatalf("Errors() yields %d errors, GetErrors() returns %d", len(got), len(errs))
	}
	for i := range got {
		if got[i] != errs[i] {
			t.Errorf("error %d: Errors() yields %v, GetErrors() holds %v", i, got[i], errs[i])
		}
	}
	slices.Reverse(got)
	got[0] = errors.New("replaced")
	if again := s.GetErrors(); again[0] != errs[0] || again[2] != errs[2] {
		t.Errorf("changing a collected list reached the instance")
	}
	// Early break.
	n := 0
	for range s.Errors() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("the loop ran %d times", n)
	}

	// ERRITER-2, PARSE-9: the error Parse returned is among them, as the
	// very value.
	s.SetFollow(nil)
	html := "<html/>"
	_, err := s.Parse("https://example.com/page.html", &html)
	if err == nil {
		t.Fatal("no error for an HTML page")
	}
	found := false
	for e := range s.Errors() {
		if e == err {
			found = true
		}
	}
	if !found {
		t.Errorf("Errors() does not yield the error Parse returned")
	}
}

// ERRITER-4, THREAD-6: a loop over Errors() whose body calls Parse goes on
// through the errors as they were when it started.
func TestErrorsLoopBodyCallsParse(t *testing.T) {
	first := urlset("", "ftp://example.com/a", "ftp://example.com/b")
	second := urlset("https://example.org/fine")
	s := parseContent(t, "https://example.com/sitemap.xml", first)
	want := messagesOf(s.GetErrors())
	if len(want) != 3 {
		t.Fatalf("errors %q, want 3", want)
	}
	var seen []string
	guard(t, guardTimeout, func() {
		for err := range s.Errors() {
			if len(seen) == 0 {
				if _, err := s.Parse("https://example.org/sitemap.xml", &second); err != nil {
					t.Error(err)
				}
			}
			seen = append(seen, err.Error())
		}
	})
	if !slices.Equal(seen, want) {
		t.Errorf("the loop saw %q, want %q", seen, want)
	}
	if s.GetErrorsCount() != 0 {
		t.Errorf("after the loop GetErrors() = %q", messagesOf(s.GetErrors()))
	}
}
