package sitemap_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// Translation of raw entries into URLs, child sitemaps and validation
// errors, in tolerant and strict mode end to end: every table and example
// line of the spec's Strict mode and Internationalised host names sections,
// through Parse, and what a bad value costs. The normaliser's own tests
// (internal/urlnorm) go into the detail.

// GETURLS-6: no URL has an empty Loc: an entry whose location is empty,
// white space or missing yields none, in every format and both modes.
func TestLocNeverEmpty(t *testing.T) {
	docs := map[string]string{
		"urlset": urlset(`<loc></loc>`, "<loc> \n </loc>", `<lastmod>2024-01-15</lastmod>`, `<loc>https://example.com/kept</loc>`),
		"rss": `<rss version="2.0"><channel><item><link></link></item><item><link>  </link></item><item><title>t</title></item>` +
			`<item><link>https://example.com/kept</link></item></channel></rss>`,
		"atom": `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href=""/></entry><entry><link href=" "/></entry>` +
			`<entry><link href="https://example.com/kept"/></entry></feed>`,
		"text": "https://\nhttps:// \nhttps://example.com/kept\n",
	}
	for name, doc := range docs {
		for _, strict := range []bool{false, true} {
			s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap", &doc)
			if err != nil {
				t.Fatalf("%s strict=%v: Parse: %v", name, strict, err)
			}
			equalStrings(t, fmt.Sprintf("%s strict=%v: URLs", name, strict), locsOf(s.GetURLs()), []string{"https://example.com/kept"})
		}
	}
}

// GETURLS-7, GETURLS-9, GETURLS-12: LastMod, ChangeFreq and Priority are
// nil when their element is missing; LastMod and ChangeFreq also when it is
// empty or white space, in both modes, and nothing is reported.
func TestURLValuesNilWhenAbsent(t *testing.T) {
	doc := urlset(
		`<loc>https://example.com/missing</loc>`,
		`<loc>https://example.com/empty</loc><lastmod></lastmod><changefreq></changefreq>`,
		"<loc>https://example.com/blank</loc><lastmod> \n\t</lastmod><changefreq>  </changefreq>",
		`<loc>https://example.com/closed</loc><lastmod/><changefreq/>`,
		`<loc>https://example.com/set</loc><lastmod>2024-01-15T10:30:00Z</lastmod><changefreq>weekly</changefreq><priority>0.4</priority>`,
	)
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &doc)
		if err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		noErrors(t, s)
		urls := s.GetURLs()
		if len(urls) != 5 {
			t.Fatalf("strict=%v: URLs %q", strict, locsOf(urls))
		}
		for _, u := range urls[:4] {
			if u.LastMod != nil || u.ChangeFreq != nil || u.Priority != nil {
				t.Errorf("strict=%v: %s: LastMod %v, ChangeFreq %v, Priority %v, want all nil", strict, u.Loc, u.LastMod, u.ChangeFreq, u.Priority)
			}
		}
		set := urls[4]
		if set.LastMod == nil || !set.LastMod.Equal(mustDate(t, "2024-01-15T10:30:00Z")) || set.ChangeFreq == nil || *set.ChangeFreq != sitemap.ChangeFreqWeekly || set.Priority == nil || *set.Priority != 0.4 {
			t.Errorf("strict=%v: %s: LastMod %v, ChangeFreq %v, Priority %v", strict, set.Loc, set.LastMod, set.ChangeFreq, set.Priority)
		}
	}
}

// ADOPTED-4, TOLERANT-8, STRICT-10, GETURLS-7, GETURLS-12: a <lastmod> or a
// <priority> that cannot be parsed costs its value in tolerant mode (nil,
// reported, the entry kept) and its entry in strict mode, never the other
// entries of the document, and never the call.
func TestBadValueCostsOnlyItself(t *testing.T) {
	doc := urlset(
		`<loc>https://example.com/a</loc><lastmod>2024-01-15</lastmod>`,
		`<loc>https://example.com/bad-date</loc><lastmod>2024-01-15 10:30:00</lastmod>`,
		`<loc>https://example.com/bad-priority</loc><priority>high</priority>`,
		`<loc>https://example.com/c</loc><lastmod>2024-01-16</lastmod>`,
	)
	wantErrs := []string{
		`validate "https://example.com/bad-date": invalid <lastmod> value "2024-01-15 10:30:00"`,
		`validate "https://example.com/bad-priority": invalid <priority> value "high"`,
	}
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &doc)
	if err != nil {
		t.Fatalf("tolerant: Parse: %v", err)
	}
	urls := s.GetURLs()
	equalStrings(t, "tolerant: URLs", locsOf(urls), []string{"https://example.com/a", "https://example.com/bad-date", "https://example.com/bad-priority", "https://example.com/c"})
	equalStrings(t, "tolerant: errors", messagesOf(s.GetErrors()), wantErrs)
	if len(urls) == 4 && (urls[0].LastMod == nil || urls[1].LastMod != nil || urls[2].Priority != nil || urls[3].LastMod == nil) {
		t.Errorf("tolerant: dates %v %v %v, priority %v: only the bad values are nil", urls[0].LastMod, urls[1].LastMod, urls[3].LastMod, urls[2].Priority)
	}

	s, err = sitemap.New().SetStrict(true).Parse("https://example.com/sitemap.xml", &doc)
	if err != nil {
		t.Fatalf("strict: Parse: %v", err)
	}
	equalStrings(t, "strict: URLs", locsOf(s.GetURLs()), []string{"https://example.com/a", "https://example.com/c"})
	equalStrings(t, "strict: errors", messagesOf(s.GetErrors()), wantErrs)
}

// GETURLS-8: LastMod is the <lastmod> of a <url>, the <pubDate> of an RSS
// item and the <updated> of an Atom entry; the date elements of the other
// formats are not read, and a text sitemap has no dates.
func TestLastModSourcePerFormat(t *testing.T) {
	const at = "2024-01-15T10:30:00Z"
	tests := []struct {
		name, doc string
		dated     bool
	}{
		{"urlset <lastmod>", urlset(`<loc>https://example.com/p</loc><lastmod>` + at + `</lastmod>`), true},
		{"urlset <pubDate>", urlset(`<loc>https://example.com/p</loc><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate>`), false},
		{"urlset <updated>", urlset(`<loc>https://example.com/p</loc><updated>` + at + `</updated>`), false},
		{"RSS <pubDate>", `<rss version="2.0"><channel><item><link>https://example.com/p</link><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate></item></channel></rss>`, true},
		{"RSS <lastmod>", `<rss version="2.0"><channel><item><link>https://example.com/p</link><lastmod>` + at + `</lastmod></item></channel></rss>`, false},
		{"Atom <updated>", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/p"/><published>2020-01-01T00:00:00Z</published><updated>` + at + `</updated></entry></feed>`, true},
		{"Atom <lastmod>", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/p"/><lastmod>` + at + `</lastmod></entry></feed>`, false},
		{"text", "https://example.com/p 2024-01-15T10:30:00Z\nhttps://example.com/p\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := sitemap.New().Parse("https://example.com/doc", &tt.doc)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			urls := s.GetURLs()
			if len(urls) == 0 {
				t.Fatal("no URL")
			}
			u := urls[len(urls)-1]
			switch {
			case tt.dated && (u.LastMod == nil || !u.LastMod.Equal(mustDate(t, at))):
				t.Errorf("LastMod = %v, want %s", u.LastMod, at)
			case !tt.dated && u.LastMod != nil:
				t.Errorf("LastMod = %v, want nil", u.LastMod)
			}
		})
	}
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
	s := sitemap.New().SetHTTPClient(&http.Client{Transport: &web{h: h}})
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

func TestURLRules(t *testing.T) {
	// RULES-1, RULES-2, RULES-3, RULES-7: kept when one pattern matches the
	// URL as returned; no error for those left out.
	content := urlset(
		"https://example.com/product/1",
		"https://example.com/category/2",
		"https://example.com/about",
		"/product/relative",
		"https://example.com/caf\u00e9",
		"https://example.com.evil.test/product/3",
		"https://b\u00fccher.example/page",
	)
	tests := []struct {
		name   string
		strict bool
		rules  []string
		want   []string
	}{
		{"none", false, nil, []string{
			"https://example.com/product/1", "https://example.com/category/2", "https://example.com/about",
			"https://example.com/product/relative", "https://example.com/caf%C3%A9",
			"https://example.com.evil.test/product/3", "https://xn--bcher-kva.example/page"}},
		{"spec example", false, []string{`product/`, `category/`}, []string{
			"https://example.com/product/1", "https://example.com/category/2",
			"https://example.com/product/relative", "https://example.com.evil.test/product/3"}},
		{"resolved URL", false, []string{`^https://example\.com/product/relative$`}, []string{"https://example.com/product/relative"}},
		{"percent-encoded", false, []string{`caf%C3%A9$`}, []string{"https://example.com/caf%C3%A9"}},
		{"not as written", false, []string{"caf\u00e9"}, nil},
		{"punycode host", false, []string{`^https://xn--bcher-kva\.example/`}, []string{"https://xn--bcher-kva.example/page"}},
		{"unanchored", false, []string{`example\.com`}, []string{
			"https://example.com/product/1", "https://example.com/category/2", "https://example.com/about",
			"https://example.com/product/relative", "https://example.com/caf%C3%A9", "https://example.com.evil.test/product/3"}},
		{"anchored", false, []string{`^https://example\.com/`}, []string{
			"https://example.com/product/1", "https://example.com/category/2", "https://example.com/about",
			"https://example.com/product/relative", "https://example.com/caf%C3%A9"}},
		{"strict: as written", true, []string{"caf\u00e9$"}, []string{"https://example.com/caf\u00e9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sitemap.New().SetStrict(tt.strict)
			if tt.rules != nil {
				s.SetRules(tt.rules)
			}
			if _, err := s.Parse("https://example.com/sitemap.xml", &content); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), tt.want)
			if !tt.strict {
				noErrors(t, s)
			}
		})
	}
}

func TestURLRulesDoNotFilterSitemaps(t *testing.T) {
	// RULES-6: the rules filter pages; the follow rules decide about
	// sitemaps.
	srv := newServer(t)
	srv.Doc("/sitemap-1.xml", urlset("https://example.com/product/1", "https://example.com/blog/1"))
	srv.Doc("/index.xml", index(srv.At("/sitemap-1.xml")))
	s, err := sitemap.New().SetRules([]string{`/product/`}).Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/product/1"})
	equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.At("/sitemap-1.xml")})
	noErrors(t, s)
}

// VALUE-10, VALUE-11: a date a document gives again, as written or in
// another spelling of the same instant, reads as the first one did, in a
// <lastmod> and in the dates of the extensions alike; one that does not
// parse is reported each time it is given, however often (issue 19: the
// translate stage reads a date it has read before from a table, not again).
func TestRepeatedDates(t *testing.T) {
	news := `<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>` +
		`<news:publication_date>%s</news:publication_date><news:title>T</news:title></news:news>`
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">`
	dates := []string{"2024-01-15T10:30:00+02:00", "2024-01-15T10:30:00+02:00", "2024-01-15T08:30:00Z", "2024-01-15 10:30", "2024-01-15 10:30", "2024-01-15T10:30:00+02:00"}
	for i, d := range dates {
		doc += fmt.Sprintf(`<url><loc>https://example.com/%d</loc><lastmod>%s</lastmod>`+news+`</url>`, i, d, d)
	}
	doc += `</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &doc)
	if err != nil {
		t.Fatal(err)
	}
	urls := s.GetURLs()
	if len(urls) != len(dates) {
		t.Fatalf("%d URLs", len(urls))
	}
	want := time.Date(2024, 1, 15, 8, 30, 0, 0, time.UTC)
	for i, u := range urls {
		bad := i == 3 || i == 4
		if bad != (u.LastMod == nil) || bad != (u.News.PublicationDate == nil) {
			t.Fatalf("URL %d: lastmod %v, publication date %v", i, u.LastMod, u.News.PublicationDate)
		}
		if bad {
			continue
		}
		if !u.LastMod.Equal(want) || !u.News.PublicationDate.Equal(want) {
			t.Errorf("URL %d: lastmod %v, publication date %v, want %v", i, u.LastMod, u.News.PublicationDate, want)
		}
		if _, off := u.LastMod.Zone(); off != map[bool]int{true: 0, false: 7200}[i == 2] {
			t.Errorf("URL %d: lastmod %v, in the wrong zone", i, u.LastMod)
		}
	}
	var n int
	for _, m := range messagesOf(s.GetErrors()) {
		if strings.Contains(m, `value "2024-01-15 10:30"`) {
			n++
		}
	}
	if n != 4 || s.GetErrorsCount() != 4 {
		t.Errorf("the bad date is reported %d times of %d errors, want 4: %q", n, s.GetErrorsCount(), messagesOf(s.GetErrors()))
	}
}

// An RSS feed's pubDates given again are looked up as written, as a
// urlset's W3C dates are (issue 19): the same instants, their zones kept,
// and a bad one reported each time it is given.
func TestRepeatedFeedDates(t *testing.T) {
	dates := []string{"Mon, 15 Jan 2024 10:30:00 +0200", "Mon, 15 Jan 2024 10:30:00 +0200", "Mon, 15 Jan 2024 08:30:00 GMT", "15/01/2024", "15/01/2024", "Mon, 15 Jan 2024 10:30:00 +0200"}
	doc := `<rss version="2.0"><channel><title>T</title>`
	for i, d := range dates {
		doc += fmt.Sprintf(`<item><link>https://example.com/%d</link><pubDate>%s</pubDate></item>`, i, d)
	}
	doc += `</channel></rss>`
	s, err := sitemap.New().Parse("https://example.com/feed.xml", &doc)
	if err != nil {
		t.Fatal(err)
	}
	urls := s.GetURLs()
	if len(urls) != len(dates) {
		t.Fatalf("%d URLs: %v", len(urls), messagesOf(s.GetErrors()))
	}
	want := time.Date(2024, 1, 15, 8, 30, 0, 0, time.UTC)
	for i, u := range urls {
		if bad := i == 3 || i == 4; bad != (u.LastMod == nil) {
			t.Fatalf("URL %d: lastmod %v", i, u.LastMod)
		} else if bad {
			continue
		}
		if !u.LastMod.Equal(want) {
			t.Errorf("URL %d: lastmod %v, want %v", i, u.LastMod, want)
		}
		if _, off := u.LastMod.Zone(); off != map[bool]int{true: 0, false: 7200}[i == 2] {
			t.Errorf("URL %d: lastmod %v, in the wrong zone", i, u.LastMod)
		}
	}
	if urls[0].LastMod != urls[1].LastMod || urls[0].LastMod != urls[5].LastMod {
		t.Error("the URLs that give one pubDate do not share its value")
	}
	var n int
	for _, m := range messagesOf(s.GetErrors()) {
		if strings.Contains(m, `value "15/01/2024"`) {
			n++
		}
	}
	if n != 2 || s.GetErrorsCount() != 2 {
		t.Errorf("the bad date is reported %d times of %d errors, want 2: %q", n, s.GetErrorsCount(), messagesOf(s.GetErrors()))
	}
}
