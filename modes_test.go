package sitemap_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gositemap/sitemap"
)

// Tolerant and strict mode end to end: every table and example line of the
// spec's Strict mode and Internationalised host names sections, through
// Parse. The normaliser's own tests (internal/urlnorm) go into the detail.

// parseModes parses content located at base and returns the Locs and the error
// messages.
func parseModes(t *testing.T, strict bool, base, content string) (locs, errs []string) {
	t.Helper()
	s, err := sitemap.New().SetStrict(strict).Parse(base, &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, u := range s.GetURLs() {
		locs = append(locs, u.Loc)
	}
	for _, e := range s.GetErrors() {
		errs = append(errs, e.Error())
	}
	return locs, errs
}

// TestModesLocations runs one <loc> at a time through both modes, each
// message as the project fixed it (ERRORS-17).
func TestModesLocations(t *testing.T) {
	const base = "https://example.com/sitemap.xml"
	cases := []struct {
		name, loc string
		tolerant  string // the Loc returned, or "" when skipped
		tolErr    string // the error recorded, or ""
		strict    string
		strictErr string
	}{
		// TOLERANT-1, STRICT-2
		{"relative", "/page", "https://example.com/page", "", "", `validate "/page": strict mode: URL is not absolute`},
		// TOLERANT-2, STRICT-4, STRICT-15
		{"space in query", "https://example.com/search?q=summer sale", "https://example.com/search?q=summer%20sale", "",
			"", `validate "https://example.com/search?q=summer sale": strict mode: URL contains a space`},
		// TOLERANT-3, STRICT-6
		{"non-ASCII", "https://example.com/café?q=café", "https://example.com/caf%C3%A9?q=caf%C3%A9", "",
			"https://example.com/café?q=café", ""},
		// TOLERANT-5, STRICT-5, STRICT-14
		{"bar in query", "https://example.com/search?tags=summer|sale", "https://example.com/search?tags=summer|sale", "",
			"", `validate "https://example.com/search?tags=summer|sale": strict mode: URL contains the character '|', which it has to give as "%7C"`},
		{"bar in path", "https://example.com/a|b", "https://example.com/a%7Cb", "",
			"", `validate "https://example.com/a|b": strict mode: URL contains the character '|', which it has to give as "%7C"`},
		// STRICT-6
		{"brackets", "https://example.com/a[1]", "https://example.com/a[1]", "", "https://example.com/a[1]", ""},
		// TOLERANT-4, ADOPTED-8
		{"escape kept", "https://example.com/summer%20sale", "https://example.com/summer%20sale", "", "https://example.com/summer%20sale", ""},
		{"amp entity", "https://example.com/?a=1&amp;b=2", "https://example.com/?a=1&b=2", "", "https://example.com/?a=1&b=2", ""},
		// HOST-2
		{"host case", "https://Example.com/page", "https://Example.com/page", "", "https://Example.com/page", ""},
		{"default port", "https://example.com:443/page", "https://example.com:443/page", "", "https://example.com:443/page", ""},
		// HOST-3, HOST-4, STRICT-3
		{"other port", "https://example.com:8443/page", "https://example.com:8443/page", "",
			"", `validate "https://example.com:8443/page": strict mode: host "example.com:8443" does not match sitemap host "example.com"`},
		{"subdomain", "https://www.example.com/page", "https://www.example.com/page", "",
			"", `validate "https://www.example.com/page": strict mode: host "www.example.com" does not match sitemap host "example.com"`},
		// HOST-5, STRICT-3
		{"protocol", "http://example.com/page", "http://example.com/page", "",
			"", `validate "http://example.com/page": strict mode: protocol "http" does not match sitemap protocol "https"`},
		// LOC-2, TOLERANT-11
		{"no host", "https:///page", "", `validate "https:///page": missing host`, "", `validate "https:///page": missing host`},
		{"opaque", "https:page", "", `validate "https:page": missing host`, "", `validate "https:page": missing host`},
		{"port no host", "https://:8080/page", "", `validate "https://:8080/page": missing host`, "", `validate "https://:8080/page": missing host`},
		// LOC-5, LOC-6, LOC-7, LOC-8 (the errors name the location as written)
		{"scheme-relative", "//cdn.example.com/page", "https://cdn.example.com/page", "", "", `validate "//cdn.example.com/page": strict mode: URL is not absolute`},
		{"slashes only", "//", "", `validate "//": missing host`, "", ""},
		{"three slashes", "///page", "", `validate "///page": missing host`, "", ""},
		{"unparseable", "//::", "", `validate "//::": parse "https://::": invalid port "::" after host`, "", ""},
		// ROBOTS-12 for a <loc>, TOLERANT-11
		{"ftp", "ftp://example.com/file", "", `validate "ftp://example.com/file": unsupported scheme "ftp"`,
			"", `validate "ftp://example.com/file": strict mode: unsupported scheme "ftp"`},
		// VALUE-8
		{"padded", "\n   https://example.com/padded \t\n", "https://example.com/padded", "", "https://example.com/padded", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []struct {
				strict       bool
				want, wantEr string
			}{{false, tc.tolerant, tc.tolErr}, {true, tc.strict, tc.strictErr}} {
				if mode.strict && tc.strict == "" && tc.strictErr == "" {
					continue // the strict outcome of this case is another case's
				}
				locs, errs := parseModes(t, mode.strict, base, urlset(tc.loc))
				if mode.want == "" && len(locs) != 0 || mode.want != "" && (len(locs) != 1 || locs[0] != mode.want) {
					t.Errorf("strict=%v: got %q, want %q", mode.strict, locs, mode.want)
				}
				if mode.wantEr == "" && len(errs) != 0 || mode.wantEr != "" && (len(errs) != 1 || errs[0] != mode.wantEr) {
					t.Errorf("strict=%v: errors %q, want %q", mode.strict, errs, mode.wantEr)
				}
			}
		})
	}
}

// TestModesLength checks the 2,048-character bound (STRICT-7, TOLERANT-6,
// TOLERANT-11).
func TestModesLength(t *testing.T) {
	const base = "https://example.com/sitemap.xml"
	prefix := "https://example.com/"
	exact := prefix + strings.Repeat("a", 2048-len(prefix))
	over := exact + "a"
	// 2,047 characters written, 2,049 once the space is encoded.
	encodedOver := prefix + " " + strings.Repeat("a", 2046-len(prefix))
	for _, strict := range []bool{false, true} {
		locs, _ := parseModes(t, strict, base, urlset(exact))
		if len(locs) != 1 {
			t.Errorf("strict=%v: a location of exactly 2,048 characters was rejected", strict)
		}
		locs, errs := parseModes(t, strict, base, urlset(over))
		if len(locs) != 0 || len(errs) != 1 {
			t.Errorf("strict=%v: a location of 2,049 characters: %d kept, errors %v", strict, len(locs), errs)
		}
	}
	if locs, _ := parseModes(t, false, base, urlset(encodedOver)); len(locs) != 0 {
		t.Errorf("tolerant: a location over 2,048 characters once encoded was kept")
	}
}

// TestModesIDN reproduces the table of the Internationalised host names
// section (IDN-2..10); a sitemap may write a host in either form (IDN-1).
func TestModesIDN(t *testing.T) {
	cases := []struct{ base, loc, want string }{
		{"https://example.com/sitemap.xml", "https://bücher.example/page", "https://xn--bcher-kva.example/page"},
		{"https://example.com/sitemap.xml", "https://BÜCHER.example/page", "https://xn--bcher-kva.example/page"},
		{"https://example.com/sitemap.xml", "https://xn--bcher-kva.example/page", "https://xn--bcher-kva.example/page"},
		{"https://bücher.example/sitemap.xml", "/page", "https://xn--bcher-kva.example/page"},
		{"https://example.com/sitemap.xml", "https://Example.com/page", "https://Example.com/page"},
		{"https://example.com/sitemap.xml", "https://bücher_x.example/page", "https://b%C3%BCcher_x.example/page"},
	}
	for _, tc := range cases {
		locs, errs := parseModes(t, false, tc.base, urlset(tc.loc))
		if len(locs) != 1 || locs[0] != tc.want {
			t.Errorf("%s in %s: got %q (errors %q), want %q", tc.loc, tc.base, locs, errs, tc.want)
		}
	}
	// Strict mode: as written, and both forms are one host.
	for _, tc := range []struct{ base, loc string }{
		{"https://bücher.example/sitemap.xml", "https://xn--bcher-kva.example/page"},
		{"https://xn--bcher-kva.example/sitemap.xml", "https://bücher.example/page"},
	} {
		locs, errs := parseModes(t, true, tc.base, urlset(tc.loc))
		if len(locs) != 1 || locs[0] != tc.loc {
			t.Errorf("strict: %s in %s: got %q (errors %q)", tc.loc, tc.base, locs, errs)
		}
	}
}

// TestModesIDNFetchedOnce lists one sitemap under both forms of its host
// (IDN-7): it is fetched once, by its Punycode name.
func TestModesIDNFetchedOnce(t *testing.T) {
	var mu sync.Mutex
	hosts := map[string]int{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts[r.URL.Host+r.URL.Path]++
		mu.Unlock()
		fmt.Fprint(w, urlset("https://xn--bcher-kva.example/page"))
	})
	index := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	  <sitemap><loc>https://bücher.example/s.xml</loc></sitemap>
	  <sitemap><loc>https://xn--bcher-kva.example/s.xml</loc></sitemap>
	  <sitemap><loc>https://BÜCHER.example/s.xml</loc></sitemap>
	</sitemapindex>`
	s := sitemap.New().SetHTTPClient(&http.Client{Transport: inProcess{h}})
	if _, err := s.Parse("https://bücher.example/index.xml", &index); err != nil {
		t.Fatal(err)
	}
	if len(hosts) != 1 || hosts["xn--bcher-kva.example/s.xml"] != 1 {
		t.Errorf("requests %v, want one to xn--bcher-kva.example/s.xml", hosts)
	}
	if got := s.GetSitemaps(); len(got) != 1 || got[0].Loc != "https://xn--bcher-kva.example/s.xml" {
		t.Errorf("GetSitemaps = %v", got)
	}
}

// TestModesTolerantXML reads past the XML mistakes of TOLERANT-10, which
// strict mode rejects whole (STRICT-13).
func TestModesTolerantXML(t *testing.T) {
	const base = "https://example.com/sitemap.xml"
	cases := map[string]struct {
		doc  string
		want []string
	}{
		"unescaped ampersand": {urlset("https://example.com/?a=1&b=2"), []string{"https://example.com/?a=1&b=2"}},
		"html entity":         {urlset("https://example.com/a&nbsp;b"), []string{"https://example.com/a%C2%A0b"}},
		"missing url end tag": {`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/1</loc><url><loc>https://example.com/2</loc></url></urlset>`,
			[]string{"https://example.com/1", "https://example.com/2"}},
		"missing root end tag": {`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/1</loc></url>`,
			[]string{"https://example.com/1"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			locs, errs := parseModes(t, false, base, tc.doc)
			if strings.Join(locs, " ") != strings.Join(tc.want, " ") {
				t.Errorf("tolerant: got %q (errors %q), want %q", locs, errs, tc.want)
			}
			s, err := sitemap.New().SetStrict(true).Parse(base, &tc.doc)
			var pe *sitemap.ParseError
			if !errors.As(err, &pe) || s.GetURLCount() != 0 {
				t.Errorf("strict: got %v and %d URLs, want a *ParseError and none", err, s.GetURLCount())
			}
		})
	}
}

// TestModesValues covers <changefreq> and <priority> in both modes
// (STRICT-8, STRICT-9, TOLERANT-7, TOLERANT-9, VALUE-7, VALUE-9), a bad
// <lastmod> or <priority> (STRICT-10, TOLERANT-8), a missing or
// unparseable priority left nil (GETURLS-12), and the messages the project
// fixed for them (ERRORS-17).
func TestModesValues(t *testing.T) {
	const base = "https://example.com/sitemap.xml"
	entry := func(inner string) string {
		return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/p</loc>` + inner + `</url></urlset>`
	}
	for _, tc := range []struct {
		name, inner      string
		tolCF            string // "" for nil
		tolPrio          string // "" for nil
		tolErrs          int
		strictKept       bool
		strictErrMessage string
	}{
		{"daily", "<changefreq>daily</changefreq>", "daily", "", 0, true, ""},
		{"Daily", "<changefreq>Daily</changefreq>", "daily", "", 0, false, `validate "https://example.com/p": strict mode: invalid <changefreq> value "Daily"`},
		{"unknown", "<changefreq>fortnightly</changefreq>", "fortnightly", "", 0, false, `validate "https://example.com/p": strict mode: invalid <changefreq> value "fortnightly"`},
		{"blank changefreq", "<changefreq>  </changefreq>", "", "", 0, true, ""},
		{"priority", "<priority> 0.8 </priority>", "", "0.8", 0, true, ""},
		{"priority out of range", "<priority>1.5</priority>", "", "1.5", 0, false, `validate "https://example.com/p": strict mode: <priority> value "1.5" is not between 0.0 and 1.0`},
		{"empty priority", "<priority></priority>", "", "0", 0, true, ""},
		{"bad priority", "<priority>high</priority>", "", "", 1, false, `validate "https://example.com/p": invalid <priority> value "high"`},
		{"bad lastmod", "<lastmod>2024-01-15 10:30:00</lastmod>", "", "", 1, false, `validate "https://example.com/p": invalid <lastmod> value "2024-01-15 10:30:00"`},
		{"empty lastmod", "<lastmod> </lastmod>", "", "", 0, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := entry(tc.inner)
			s, _ := sitemap.New().Parse(base, &doc)
			if s.GetURLCount() != 1 {
				t.Fatalf("tolerant: %d URLs", s.GetURLCount())
			}
			u := s.GetURLs()[0]
			if got := fmt.Sprint(deref(u.ChangeFreq)); got != tc.tolCF {
				t.Errorf("tolerant ChangeFreq %q, want %q", got, tc.tolCF)
			}
			if got := fmt.Sprint(deref(u.Priority)); got != tc.tolPrio {
				t.Errorf("tolerant Priority %q, want %q", got, tc.tolPrio)
			}
			if int(s.GetErrorsCount()) != tc.tolErrs {
				t.Errorf("tolerant errors %v", s.GetErrors())
			}
			s, _ = sitemap.New().SetStrict(true).Parse(base, &doc)
			if kept := s.GetURLCount() == 1; kept != tc.strictKept {
				t.Errorf("strict: kept %v, want %v", kept, tc.strictKept)
			}
			var errs []string
			for _, e := range s.GetErrors() {
				errs = append(errs, e.Error())
			}
			if want := tc.strictErrMessage; want == "" && len(errs) > 0 || want != "" && (len(errs) != 1 || errs[0] != want) {
				t.Errorf("strict errors %q, want %q", errs, want)
			}
		})
	}
}

// deref returns *p, or "" for nil.
func deref[T any](p *T) any {
	if p == nil {
		return ""
	}
	return *p
}

// TestModesSitemapLocations checks the locations of index entries and
// robots.txt lines in both modes (GETSITEMAPS-3, STRICT-12, ROBOTS-12..15).
func TestModesSitemapLocations(t *testing.T) {
	var mu sync.Mutex
	requested := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requested[r.URL.RequestURI()] = true
		mu.Unlock()
		fmt.Fprint(w, urlset())
	}))
	defer srv.Close()
	index := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	  <sitemap><loc>/s 1.xml</loc></sitemap>
	  <sitemap><loc>` + srv.URL + `/s2.xml</loc></sitemap>
	  <sitemap><loc>https://other.example/s3.xml</loc></sitemap>
	</sitemapindex>`
	s, err := sitemap.New().SetFollow([]string{`s%201\.xml$`, `s2\.xml$`}).Parse(srv.URL+"/index.xml", &index)
	if err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, sm := range s.GetSitemaps() {
		locs = append(locs, sm.Loc)
	}
	want := []string{srv.URL + "/s%201.xml", srv.URL + "/s2.xml", "https://other.example/s3.xml"}
	if strings.Join(locs, " ") != strings.Join(want, " ") {
		t.Errorf("tolerant GetSitemaps %q, want %q", locs, want)
	}
	if !requested["/s%201.xml"] || !requested["/s2.xml"] {
		t.Errorf("follow rules are matched against the request form: requested %v", requested)
	}
	// Strict: the relative one and the one on another host are rejected.
	s, _ = sitemap.New().SetStrict(true).SetFollow([]string{`^$`}).Parse(srv.URL+"/index.xml", &index)
	if got := s.GetSitemaps(); len(got) != 1 || got[0].Loc != srv.URL+"/s2.xml" {
		t.Errorf("strict GetSitemaps %v", got)
	}
	if s.GetErrorsCount() != 2 {
		t.Errorf("strict errors %v", s.GetErrors())
	}
	// A robots.txt may name sitemaps anywhere, in both modes.
	robots := "Sitemap: https://other.example/s.xml\nSitemap: ftp://example.com/sitemap.xml\nSitemap: /rel.xml\n"
	for _, strict := range []bool{false, true} {
		s, _ := sitemap.New().SetStrict(strict).SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &robots)
		var got []string
		for _, sm := range s.GetSitemaps() {
			got = append(got, sm.Loc)
		}
		want := []string{"https://other.example/s.xml", "https://example.com/rel.xml"}
		if strict {
			want = want[:1]
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("strict=%v: robots sitemaps %q, want %q", strict, got, want)
		}
		var ftp bool
		for _, e := range s.GetErrors() {
			ftp = ftp || strings.HasPrefix(e.Error(), `validate "ftp://example.com/sitemap.xml": `) && strings.Contains(e.Error(), `unsupported scheme "ftp"`)
		}
		if !ftp {
			t.Errorf("strict=%v: no error for the ftp Sitemap: line: %v", strict, s.GetErrors())
		}
	}
}

// TestModesTolerantLinkElements is the regression test of an AutoClose list
// that closed every <link> at once: RSS links and xhtml:link elements with
// content were rejected in tolerant mode.
func TestModesTolerantLinkElements(t *testing.T) {
	rss := `<rss version="2.0"><channel><item><link>https://example.com/post</link></item></channel></rss>`
	hreflang := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
	  <url><loc>https://example.com/en</loc>
	    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de">
	    </xhtml:link>
	  </url></urlset>`
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/feed.xml", &rss)
		if err != nil || s.GetURLCount() != 1 {
			t.Errorf("strict=%v: RSS: %v, %d URLs", strict, err, s.GetURLCount())
		}
		s, err = sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &hreflang)
		if err != nil || s.GetURLCount() != 1 || len(s.GetURLs()[0].Hreflangs) != 1 {
			t.Errorf("strict=%v: xhtml:link: %v, %d URLs", strict, err, s.GetURLCount())
		}
	}
}

// TestModesSiteMismatchNamesTheSitemap checks the cause strict mode gives a
// URL off the site of its sitemap, in the spec's words (STRICT-3, HOST-1,
// HOST-3, HOST-4, HOST-5, REDIRECT-5, IDN-10). The engine
// (internal/urlnorm, TestSameSite) decides what differs; the words are the
// root's. The cases are those of TestSameSite with a base Parse accepts.
func TestModesSiteMismatchNamesTheSitemap(t *testing.T) {
	cases := []struct{ loc, base, cause string }{
		{"https://www.example.com/page", "https://example.com/sitemap.xml", `host "www.example.com" does not match sitemap host "example.com"`},
		{"https://example.org/page", "https://example.com/sitemap.xml", `host "example.org" does not match sitemap host "example.com"`},
		{"https://example.com:8443/page", "https://example.com/sitemap.xml", `host "example.com:8443" does not match sitemap host "example.com"`},
		{"https://example.com:80/page", "https://example.com/sitemap.xml", `host "example.com:80" does not match sitemap host "example.com"`},
		{"https://Example.com:8443/page", "https://EXAMPLE.com/sitemap.xml", `host "Example.com:8443" does not match sitemap host "EXAMPLE.com"`},
		{"http://example.com/page", "https://example.com/sitemap.xml", `protocol "http" does not match sitemap protocol "https"`},
		{"https://example.com/page", "http://example.com/sitemap.xml", `protocol "https" does not match sitemap protocol "http"`},
		{"http://example.com/page", "https://www.example.com/sitemap.xml", `protocol "http" does not match sitemap protocol "https"`},
		{"https://bucher.example/page", "https://xn--bcher-kva.example/sitemap.xml", `host "bucher.example" does not match sitemap host "xn--bcher-kva.example"`},
	}
	for _, tc := range cases {
		locs, errs := parseModes(t, true, tc.base, urlset(tc.loc))
		want := fmt.Sprintf("validate %q: strict mode: %s", tc.loc, tc.cause)
		if len(locs) != 0 || len(errs) != 1 || errs[0] != want {
			t.Errorf("%s in %s: URLs %q, errors %q; want the error %s", tc.loc, tc.base, locs, errs, want)
		}
	}
}
