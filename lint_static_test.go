package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

// Issue 35, the static half: the checks that make no request of their
// own, of what the sitemaps schema (sitemap.xsd) and Google's Search
// Console reject and tolerant reading gets past. Each case is a document
// that shows the code and one that does not; the findings of the bad ones
// are logged (go test -v -run TestLintStaticCodes).

// gzipped is doc gzipped, cut to its first n bytes when n > 0.
func gzipped(doc string, n int) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(doc))
	z.Close()
	if n > 0 {
		return string(b.Bytes()[:n])
	}
	return b.String()
}

// corrupt is doc gzipped with a byte of its checksum changed.
func corrupt(doc string) string {
	b := []byte(gzipped(doc, 0))
	b[len(b)-6] ^= 0xff
	return string(b)
}

// video is a <url> of https://example.com/a with a video of the fields of
// vid, one replaced by what more says (or added).
func video(old, new string) string {
	return us(u("https://example.com/a", "<video:video>"+strings.Replace(vid, old, new, 1)+"</video:video>"))
}

func lintStaticCases() []lintCase {
	const page = "https://example.com/a"
	long := strings.Repeat("é", 2049)
	tags := func(n int) string {
		return strings.Repeat("<video:tag>t</video:tag>", n)
	}
	return []lintCase{
		// A gzip stream cut short, or with its checksum changed: Search
		// Console's "Compression error".
		{sitemap.CodeGzipCorrupt, gzipped(us(u(page, "")+u("https://example.com/b", "")), 40), gzipped(us(u(page, "")), 0)},
		{sitemap.CodeGzipCorrupt, corrupt(us(u(page, "<lastmod>2024-01-01</lastmod>") + u("https://example.com/b", ""))), gzipped(us(u(page, "")), 0)},
		// A tag given twice in one entry ("too many tags"), adjacent or not.
		{sitemap.CodeElementRepeated, us(u(page, "<lastmod>2024-01-01</lastmod><changefreq>daily</changefreq><lastmod>2024-01-02</lastmod>")), us(u(page, "<lastmod>2024-01-01</lastmod><changefreq>daily</changefreq><priority>0.5</priority>"))},
		{sitemap.CodeElementRepeated, us(`<url><loc>` + page + `</loc><loc>https://example.com/b</loc></url>`), us(u(page, ""))},
		// The schema's sequence: lastmod after priority.
		{sitemap.CodeElementOrder, us(u(page, "<priority>0.5</priority><lastmod>2024-01-01</lastmod>")), us(u(page, "<lastmod>2024-01-01</lastmod><priority>0.5</priority>"))},
		// Attributes the schema does not allow, on the root, an entry and
		// a field; namespace declarations and xsi: are allowed.
		{sitemap.CodeAttributeUnknown, `<urlset ` + lintNS + ` version="2">` + u(page, "") + `</urlset>`,
			`<urlset ` + lintNS + ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd">` + u(page, "") + `</urlset>`},
		{sitemap.CodeAttributeUnknown, us(`<url id="1"><loc>` + page + `</loc></url>`), us(u(page, `<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/>`))},
		{sitemap.CodeAttributeUnknown, us(`<url><loc type="page">` + page + `</loc></url>`), us(u(page, ""))},
		{sitemap.CodeAttributeUnknown, `<urlset ` + lintNS + ` xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9">` + u(page, "") + `</urlset>`, us(u(page, ""))},
		{sitemap.CodeAttributeUnknown, `<sitemapindex ` + lintNS + `><sitemap><loc>https://example.com/s.xml</loc><lastmod xml:lang="en">2024-01-01</lastmod></sitemap></sitemapindex>`,
			`<sitemapindex ` + lintNS + `><sitemap><loc>https://example.com/s.xml</loc><lastmod>2024-01-01</lastmod></sitemap></sitemapindex>`},
		// The schema's tLoc has 12 characters at least.
		{sitemap.CodeLocTooShort, us(u("http://a.b/", "")), us(u("http://ab.c/", ""))},
		// W3C Datetime that xsd:date and xsd:dateTime reject (each form checked
		// against sitemap.xsd with xmllint --schema when it was written).
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024-01-15T10:30+01:00</lastmod>")), us(u(page, "<lastmod>2024-01-15T10:30:00+01:00</lastmod>"))},
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024</lastmod>")), us(u(page, "<lastmod>2024-01-15</lastmod>"))},
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024-01</lastmod>")), us(u(page, "<lastmod>2024-01-15T10:30:00.5Z</lastmod>"))},
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024-01-15T10:30:00+0100</lastmod>")), us(u(page, "<lastmod>2024-01-15T10:30:00-14:00</lastmod>"))},
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024-01-15T10:30:00+01</lastmod>")), us(u(page, "<lastmod>2024-01-15T10:30:00+14:00</lastmod>"))},
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024-01-15t10:30:00Z</lastmod>")), us(u(page, "<lastmod>2024-01-15T10:30:00</lastmod>"))},
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024-01-15T10:30:00z</lastmod>")), us(u(page, "<lastmod>2024-01-15T10:30:00Z</lastmod>"))},
		{sitemap.CodeLastmodNotXSD, us(u(page, "<lastmod>2024-01-15T10:30:00+14:01</lastmod>")), us(u(page, "<lastmod>2024-01-15T10:30:00.123456789+01:00</lastmod>"))},
		// Google's video rules.
		{sitemap.CodeVideoDescriptionLong, video("<video:description>D", "<video:description>"+long), video("<video:description>D", "<video:description>"+long[2:])},
		{sitemap.CodeVideoContentIsPage, video("https://example.com/v.mp4", page), video("https://example.com/v.mp4", page+".mp4")},
		{sitemap.CodeVideoTagsMany, video("</video:title>", "</video:title>"+tags(33)), video("</video:title>", "</video:title>"+tags(32))},
		{sitemap.CodeVideoYesNo, video("</video:title>", "</video:title><video:family_friendly>Yes</video:family_friendly>"), video("</video:title>", "</video:title><video:family_friendly>yes</video:family_friendly>")},
		{sitemap.CodeVideoPlatform, video("</video:title>", `</video:title><video:platform relationship="allowed">web</video:platform>`), video("</video:title>", `</video:title><video:platform relationship="allow">web tv</video:platform>`)},
		{sitemap.CodeVideoRestriction, video("</video:title>", `</video:title><video:restriction>IE GB</video:restriction>`), video("</video:title>", `</video:title><video:restriction relationship="deny">IE GB</video:restriction>`)},
		{sitemap.CodeVideoPlatform, video("</video:title>", `</video:title><video:platform relationship="allow">web desktop</video:platform>`), video("</video:title>", `</video:title><video:platform relationship="deny"> tv </video:platform>`)},
		{sitemap.CodeVideoRestriction, video("</video:title>", `</video:title><video:restriction relationship="allow">IE UK-GB</video:restriction>`), video("</video:title>", `</video:title><video:restriction relationship="allow">IE GB US</video:restriction>`)},
		// ISO 3166 writes its codes in capitals, and the video sitemap
		// schema's pattern is [A-Z]{2}( +[A-Z]{2})*.
		{sitemap.CodeVideoRestriction, video("</video:title>", `</video:title><video:restriction relationship="deny">us ca</video:restriction>`), video("</video:title>", `</video:title><video:restriction relationship="deny">US CA</video:restriction>`)},
		{sitemap.CodeVideoRestriction, video("</video:title>", `</video:title><video:restriction relationship="allow">IE EU</video:restriction>`), video("</video:title>", `</video:title><video:restriction relationship="allow"></video:restriction>`)},
		{sitemap.CodeVideoDateInvalid, video("</video:title>", "</video:title><video:publication_date>15/01/2024</video:publication_date>"), video("</video:title>", "</video:title><video:publication_date>2024-01-15</video:publication_date>")},
		// An alternate link without href, without hreflang, or not rel="alternate".
		{sitemap.CodeHreflangAttribute, us(u(page, `<xhtml:link rel="alternate" hreflang="en"/>`)), us(u(page, `<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/>`))},
		{sitemap.CodeHreflangAttribute, us(u(page, `<xhtml:link rel="alternate" href="https://example.com/a"/>`)), us(u(page, `<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/>`))},
		{sitemap.CodeHreflangAttribute, us(u(page, `<xhtml:link rel="canonical" hreflang="en" href="https://example.com/a"/>`)), us(u(page, `<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/>`))},
	}
}

// lintRobotsCases are the cases of the Sitemap: values of a robots.txt,
// read at https://example.com/robots.txt (ROBOTS-13: the reading stays
// tolerant; lint says what it guessed).
func lintRobotsCases() []lintCase {
	good := "User-agent: *\nSitemap: https://example.com/sitemap.xml\n"
	return []lintCase{
		{sitemap.CodeLocInvalid, "Sitemap: User-agent: *\n", good},
		{sitemap.CodeRobotsSitemapValue, "Sitemap: /sitemap.xml\n", good},
		{sitemap.CodeRobotsSitemapValue, "Sitemap: {{ site.url }}/sitemap.xml\n", good},
		{sitemap.CodeRobotsSitemapValue, "Sitemap: pl/cms-sitemap.xmlHost: pl\n", "Sitemap: https://example.com/pl/cms-sitemap.xml\nHost: pl\n"},
		{sitemap.CodeRobotsSitemapValue, "Sitemap: www.other.example/sitemap-index.xml\n", "Sitemap: https://www.other.example/sitemap-index.xml\n"},
	}
}

func TestLintStaticCodes(t *testing.T) {
	run := func(base string, cases []lintCase) {
		for _, tc := range cases {
			t.Run(string(tc.code), func(t *testing.T) {
				o := &sitemap.LintOptions{NoRobots: true, MaxPerCode: 1000}
				bad := lintOf(t, base, tc.bad, o)
				if lintCount(bad, tc.code) == 0 {
					t.Errorf("no %s finding for the bad document:%s", tc.code, lintDump(bad))
				}
				for _, f := range bad {
					if f.Code == tc.code {
						if f.Severity != tc.code.Severity() {
							t.Errorf("%s is %s, want %s", tc.code, f.Severity, tc.code.Severity())
						}
						t.Logf("%.300q\n\t%s", strings.TrimPrefix(tc.bad, strings.TrimSuffix(us(""), "</urlset>")), f)
						break
					}
				}
				good := lintOf(t, base, tc.good, o)
				if n := lintCount(good, tc.code); n != 0 {
					t.Errorf("%d %s findings for the good document:%s", n, tc.code, lintDump(good))
				}
			})
		}
	}
	run(lintBase, lintStaticCases())
	run("https://example.com/robots.txt", lintRobotsCases())
}

// The severities issue 35 raised: element-order a warning, empty an error
// for a urlset or an index but a warning for a feed, nested-index an error.
func TestLintStaticSeverities(t *testing.T) {
	for code, want := range map[sitemap.Code]sitemap.Severity{
		sitemap.CodeElementOrder: sitemap.SeverityWarning, sitemap.CodeElementRepeated: sitemap.SeverityError,
		sitemap.CodeEmpty: sitemap.SeverityError, sitemap.CodeNestedIndex: sitemap.SeverityError,
	} {
		if got := code.Severity(); got != want {
			t.Errorf("%s is %s, want %s", code, got, want)
		}
	}
	for _, tc := range []struct {
		doc  string
		want sitemap.Severity
	}{
		{us(""), sitemap.SeverityError},
		{`<sitemapindex ` + lintNS + `></sitemapindex>`, sitemap.SeverityError},
		{`<rss version="2.0"><channel><title>T</title></channel></rss>`, sitemap.SeverityWarning},
		{`<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title></feed>`, sitemap.SeverityWarning},
	} {
		fs := lintOf(t, lintBase, tc.doc, nil)
		if len(fs) != 1 || fs[0].Code != sitemap.CodeEmpty || fs[0].Severity != tc.want {
			t.Errorf("%s: want one empty finding, %s:%s", tc.doc, tc.want, lintDump(fs))
		}
	}
}

// sitemap-disallowed: a sitemap its own host's robots.txt disallows, the
// root or one an index lists; not-in-robots: the root sitemap that the
// robots.txt does not list, and only the root.
func TestLintSitemapRobots(t *testing.T) {
	srv := lintServe(t, map[string]string{
		"/robots.txt":        "User-agent: *\nDisallow: /private/\nSitemap: SRV/index.xml\n",
		"/index.xml":         `<sitemapindex ` + lintNS + `><sitemap><loc>SRV/private/s.xml</loc></sitemap><sitemap><loc>SRV/s.xml</loc></sitemap></sitemapindex>`,
		"/private/s.xml":     us(u("SRV/a", "")),
		"/s.xml":             us(u("SRV/b", "")),
		"/private/index.xml": `<sitemapindex ` + lintNS + `><sitemap><loc>SRV/s.xml</loc></sitemap></sitemapindex>`,
	})
	fs := lintURL(t, srv.URL+"/index.xml", nil)
	if lintCount(fs, sitemap.CodeSitemapDisallowed) != 1 || lintCount(fs, sitemap.CodeNotInRobots) != 0 {
		t.Fatalf("want one sitemap-disallowed and no not-in-robots:%s", lintDump(fs))
	}
	for _, f := range fs {
		if f.Code == sitemap.CodeSitemapDisallowed {
			if f.Document != srv.URL+"/private/s.xml" || f.Severity != sitemap.SeverityError {
				t.Errorf("sitemap-disallowed: %v", f)
			}
			t.Log(f)
		}
	}
	// The root, disallowed and not listed.
	fs = lintURL(t, srv.URL+"/private/index.xml", nil)
	if lintCount(fs, sitemap.CodeSitemapDisallowed) != 1 || lintCount(fs, sitemap.CodeNotInRobots) != 1 {
		t.Fatalf("want one sitemap-disallowed and one not-in-robots:%s", lintDump(fs))
	}
	for _, f := range fs {
		if f.Code == sitemap.CodeNotInRobots {
			if f.Document != srv.URL+"/private/index.xml" || f.Severity != sitemap.SeverityInfo {
				t.Errorf("not-in-robots: %v", f)
			}
			t.Log(f)
		}
	}
	// Without robots.txt, neither.
	fs = lintURL(t, srv.URL+"/private/index.xml", &sitemap.LintOptions{NoRobots: true})
	if lintCount(fs, sitemap.CodeSitemapDisallowed)+lintCount(fs, sitemap.CodeNotInRobots) != 0 {
		t.Errorf("with NoRobots:%s", lintDump(fs))
	}
	// A host that has no robots.txt (404): not-in-robots says so, rather
	// than speak of a robots.txt that names nothing.
	bare := lintServe(t, map[string]string{"/s.xml": us(u("SRV/b", ""))})
	fs = lintURL(t, bare.URL+"/s.xml", nil)
	if lintCount(fs, sitemap.CodeNotInRobots) != 1 || lintCount(fs, sitemap.CodeSitemapDisallowed) != 0 {
		t.Fatalf("no robots.txt: want one not-in-robots:%s", lintDump(fs))
	}
	for _, f := range fs {
		if f.Code == sitemap.CodeNotInRobots && !strings.Contains(f.Message, "has no robots.txt") {
			t.Errorf("not-in-robots without a robots.txt: %v", f)
		}
	}
}

// index-lastmod-behind, on the entry of the index that gives the sitemap
// a <lastmod> earlier than its entries; a date without a time covers its
// day (month, year) in any zone, and an entry in the future does not count.
func TestLintIndexLastmodBehind(t *testing.T) {
	srv := lintServe(t, map[string]string{
		"/index.xml": `<sitemapindex ` + lintNS + `>
<sitemap><loc>SRV/behind.xml</loc><lastmod>2025-01-01T00:00:00Z</lastmod></sitemap>
<sitemap><loc>SRV/ahead.xml</loc><lastmod>2025-03-01T00:00:00Z</lastmod></sitemap>
<sitemap><loc>SRV/day.xml</loc><lastmod>2025-02-01</lastmod></sitemap>
<sitemap><loc>SRV/none.xml</loc></sitemap>
<sitemap><loc>SRV/month.xml</loc><lastmod>2025-02</lastmod></sitemap>
<sitemap><loc>SRV/west.xml</loc><lastmod>2025-02-01</lastmod></sitemap>
<sitemap><loc>SRV/future.xml</loc><lastmod>2025-02-01T00:00:00Z</lastmod></sitemap>
</sitemapindex>`,
		"/behind.xml": us(u("SRV/a", "<lastmod>2024-12-01</lastmod>") + u("SRV/b", "<lastmod>2025-02-10T08:00:00Z</lastmod>")),
		"/ahead.xml":  us(u("SRV/c", "<lastmod>2025-02-10T08:00:00Z</lastmod>")),
		"/day.xml":    us(u("SRV/d", "<lastmod>2025-02-01T18:00:00Z</lastmod>")),
		"/none.xml":   us(u("SRV/e", "<lastmod>2025-02-01T18:00:00Z</lastmod>")),
		// A month covers its days; a day is the site's, here California's;
		// a date in the future is lastmod-future's.
		"/month.xml":  us(u("SRV/f", "<lastmod>2025-02-20T18:00:00Z</lastmod>")),
		"/west.xml":   us(u("SRV/g", "<lastmod>2025-02-01T20:00:00-08:00</lastmod>")),
		"/future.xml": us(u("SRV/h", "<lastmod>2099-01-01</lastmod>")),
	})
	fs := lintURL(t, srv.URL+"/index.xml", &sitemap.LintOptions{NoRobots: true, Now: lintNow})
	if lintCount(fs, sitemap.CodeIndexLastmodBehind) != 1 {
		t.Fatalf("want one index-lastmod-behind:%s", lintDump(fs))
	}
	for _, f := range fs {
		if f.Code == sitemap.CodeIndexLastmodBehind {
			if f.Document != srv.URL+"/index.xml" || f.Line != 2 || f.URL != srv.URL+"/behind.xml" || !strings.Contains(f.Message, "2025-02-10T08:00:00Z") {
				t.Errorf("index-lastmod-behind: %v", f)
			}
			t.Log(f)
		}
	}
}

// video-platform and video-restriction are strict mode's rules too: the
// value of each is checked against its list in both (VIDEO-10, VIDEO-11,
// VIDEO-16), and strict mode keeps the video.
func TestVideoValueListsStrict(t *testing.T) {
	doc := video("</video:title>", `</video:title><video:restriction relationship="allow">IE EU</video:restriction><video:platform relationship="allow">web desktop</video:platform>`)
	s := sitemap.New().SetStrict(true)
	if _, err := s.ParseReader(context.Background(), lintBase, strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	want := map[sitemap.Code]string{
		sitemap.CodeVideoRestriction: `validate "https://example.com/a": strict mode: video <restriction> value "IE EU" is not a list of ISO 3166 country codes`,
		sitemap.CodeVideoPlatform:    `validate "https://example.com/a": strict mode: video <platform> value "web desktop" is not a list of web, mobile and tv`,
	}
	errs := s.GetErrors()
	if len(errs) != len(want) {
		t.Fatalf("%d errors, want %d: %v", len(errs), len(want), errs)
	}
	for _, err := range errs {
		found := false
		for code, msg := range want {
			if errors.Is(err, code) && err.Error() == msg {
				found = true
			}
		}
		if !found {
			t.Errorf("unexpected %v", err)
		}
	}
	if us := s.GetURLs(); len(us) != 1 || len(us[0].Videos) != 1 {
		t.Errorf("the video is not kept: %+v", us)
	}
}

// A restriction of country codes in lower case breaks the rule in strict
// mode too (VIDEO-10, VIDEO-16): ISO 3166 and the video sitemap schema
// write them in capitals. The message says so, and the video is kept, its
// value as written.
func TestVideoRestrictionCase(t *testing.T) {
	for _, c := range []struct{ value, msg string }{
		{"us Ca", `strict mode: video <restriction> value "us Ca" is not a list of ISO 3166 country codes: write them in capitals`},
		{"us xx", `strict mode: video <restriction> value "us xx" is not a list of ISO 3166 country codes`},
		{"US  CA", ""},
	} {
		doc := video("</video:title>", `</video:title><video:restriction relationship="allow">`+c.value+`</video:restriction>`)
		s := sitemap.New().SetStrict(true)
		if _, err := s.ParseReader(context.Background(), lintBase, strings.NewReader(doc)); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, err := range s.GetErrors() {
			if !errors.Is(err, sitemap.CodeVideoRestriction) {
				t.Errorf("%q: %v", c.value, err)
			}
			got = append(got, err.Error())
		}
		want := []string(nil)
		if c.msg != "" {
			want = []string{`validate "https://example.com/a": ` + c.msg}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: errors %q, want %q", c.value, got, want)
		}
		us := s.GetURLs()
		if len(us) != 1 || len(us[0].Videos) != 1 || us[0].Videos[0].Restriction == nil || us[0].Videos[0].Restriction.Value != c.value {
			t.Errorf("%q: the video is not kept as written: %+v", c.value, us)
		}
	}
}
