package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gositemap/sitemap"
)

// Issue 18: sitemap lint. Each code has a minimal document that triggers
// it and one that does not (TestLintCodes); the codes that need a server,
// a tree or a robots.txt have tests of their own below.

const (
	lintBase = "https://example.com/sitemap.xml"
	lintNS   = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`
	lintExt  = ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml"`
)

// lintNow is the time of the lint calls of the tests.
var lintNow = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)

// us is a urlset of body.
func us(body string) string { return `<urlset ` + lintNS + lintExt + `>` + body + `</urlset>` }

// u is a <url> of loc with more inside.
func u(loc, more string) string { return `<url><loc>` + loc + `</loc>` + more + `</url>` }

// lintOf lints doc, located at base, and returns its findings.
func lintOf(t *testing.T, base, doc string, o *sitemap.LintOptions) []sitemap.Finding {
	t.Helper()
	if o == nil {
		o = &sitemap.LintOptions{NoRobots: true}
	}
	if o.Now.IsZero() {
		o.Now = lintNow
	}
	var out []sitemap.Finding
	for f := range sitemap.New().SetFetchTimeout(60).SetSelection(sitemap.Selection{RootOnly: true}).Lint(context.Background(), base, strings.NewReader(doc), o) {
		out = append(out, f)
	}
	return out
}

// lintCount returns how many findings of code fs holds, the counts of
// summaries included.
func lintCount(fs []sitemap.Finding, code sitemap.Code) int64 {
	var n int64
	for _, f := range fs {
		if f.Code == code {
			n += max(f.More, 1)
		}
	}
	return n
}

func lintDump(fs []sitemap.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n\t" + f.String())
	}
	return b.String()
}

// lintCase is a code, a minimal document that triggers it and one that
// does not.
type lintCase struct {
	code      sitemap.Code
	bad, good string
}

// many is f of 0 to n-1, one after the other.
func many(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(f(i))
	}
	return b.String()
}

// A video and a news entry with every field Google requires.
const (
	vid  = `<video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc>`
	news = `<news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2025-06-15</news:publication_date><news:title>T</news:title>`
)

// lintDocumentCases are the cases of the codes about a document.
func lintDocumentCases() []lintCase {
	return []lintCase{
		{sitemap.CodeNotXML, "", us(u("https://example.com/a", ""))},
		{sitemap.CodeNotXML, "\xff\xfe<\x00u\x00", us(u("https://example.com/a", ""))},
		{sitemap.CodeNotSitemap, "<html><body>Not found</body></html>", us(u("https://example.com/a", ""))},
		{sitemap.CodeNotSitemap, `{"urls": []}`, "https://example.com/a\n"},
		{sitemap.CodeXMLSyntax, us(u("https://example.com/a?x=1&y=2", "")), us(u("https://example.com/a?x=1&amp;y=2", ""))},
		{sitemap.CodeXMLSyntax, us(u("https://example.com/a&nbsp;", "")), us(u("https://example.com/a", ""))},
		{sitemap.CodeXMLSyntax, `<urlset ` + lintNS + `><url><loc>https://example.com/a</loc></url>`, us(u("https://example.com/a", ""))},
		{sitemap.CodeXMLSyntax, `<urlset ` + lintNS + `><url><loc>https://example.com/a</loc></urx></urlset>`, us(u("https://example.com/a", ""))},
		{sitemap.CodeXMLDeclaration, "\n <?xml version=\"1.0\"?>" + us(u("https://example.com/a", "")), "\xef\xbb\xbf<?xml version=\"1.0\"?>" + us(u("https://example.com/a", ""))},
		{sitemap.CodeXMLDeclaration, "<!-- x --><?xml version=\"1.0\"?>" + us(u("https://example.com/a", "")), "<?xml version=\"1.0\"?><!-- x -->" + us(u("https://example.com/a", ""))},
		{sitemap.CodeEncoding, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + us(u("https://example.com/caf\xe9", "")), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + us(u("https://example.com/caf\xc3\xa9", ""))},
		{sitemap.CodeEncoding, us(u("https://example.com/caf\xe9", "")), us(u("https://example.com/caf\xc3\xa9", ""))},
		{sitemap.CodeDoctype, `<!DOCTYPE urlset [<!ENTITY e "x">]>` + us(u("https://example.com/a", "")), us(u("https://example.com/a", ""))},
		{sitemap.CodeNamespace, `<urlset><url><loc>https://example.com/a</loc></url></urlset>`, us(u("https://example.com/a", ""))},
		{sitemap.CodeNamespace, `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://example.com/a</loc></url></urlset>`, `<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://example.com/a</s:loc></s:url></s:urlset>`},
		{sitemap.CodeTooManyURLs, us(many(50001, func(i int) string { return u(fmt.Sprintf("https://example.com/%d", i), "") })), us(many(50000, func(i int) string { return u(fmt.Sprintf("https://example.com/%d", i), "") }))},
		{sitemap.CodeTooManySitemaps, `<sitemapindex ` + lintNS + `>` + many(50001, func(i int) string { return fmt.Sprintf("<sitemap><loc>https://example.com/%d.xml</loc></sitemap>", i) }) + `</sitemapindex>`,
			`<sitemapindex ` + lintNS + `>` + many(50000, func(i int) string { return fmt.Sprintf("<sitemap><loc>https://example.com/%d.xml</loc></sitemap>", i) }) + `</sitemapindex>`},
		{sitemap.CodeEmpty, us(""), us(u("https://example.com/a", ""))},
	}
}

// lintEntryCases are the cases of the codes about an entry.
func lintEntryCases() []lintCase {
	return []lintCase{
		{sitemap.CodeLocMissing, us(`<url><lastmod>2024-01-01</lastmod></url>`), us(u("https://example.com/a", ""))},
		{sitemap.CodeLocMissing, us(u("  ", "")), us(u("https://example.com/a", ""))},
		{sitemap.CodeLocInvalid, us(u("/a", "")), us(u("https://example.com/a", ""))},
		{sitemap.CodeLocInvalid, us(u("https:///a", "")), us(u("https://example.com/a", ""))},
		{sitemap.CodeLocInvalid, us(u("ftp://example.com/a", "")), us(u("https://example.com/a", ""))},
		{sitemap.CodeLocTooLong, us(u("https://example.com/"+strings.Repeat("a", 2048), "")), us(u("https://example.com/"+strings.Repeat("a", 2000), ""))},
		{sitemap.CodeLocNotEscaped, us(u("https://example.com/a b", "")), us(u("https://example.com/a%20b", ""))},
		{sitemap.CodeLocNotEscaped, us(u("https://example.com/a|b", "")), us(u("https://example.com/a%7Cb", ""))},
		{sitemap.CodeLocOtherHost, us(u("https://www.example.com/a", "")), us(u("https://EXAMPLE.com:443/a", ""))},
		{sitemap.CodeLocOtherScheme, us(u("http://example.com/a", "")), us(u("https://example.com/a", ""))},
		{sitemap.CodeDuplicateLoc, us(u("https://example.com/a", "") + u("https://example.com/%61", "")), us(u("https://example.com/a", "") + u("https://example.com/b", ""))},
		{sitemap.CodeLastmodInvalid, us(u("https://example.com/a", "<lastmod>2024-02-30</lastmod>")), us(u("https://example.com/a", "<lastmod>2024-02-29</lastmod>"))},
		{sitemap.CodeLastmodFuture, us(u("https://example.com/a", "<lastmod>2025-06-17</lastmod>")), us(u("https://example.com/a", "<lastmod>2025-06-16</lastmod>"))},
		{sitemap.CodeLastmodUniform, us(many(100, func(i int) string {
			return u(fmt.Sprintf("https://example.com/%d", i), "<lastmod>2025-01-01</lastmod>")
		})),
			us(many(99, func(i int) string {
				return u(fmt.Sprintf("https://example.com/%d", i), "<lastmod>2025-01-01</lastmod>")
			}))},
		{sitemap.CodeChangefreqInvalid, us(u("https://example.com/a", "<changefreq>Daily</changefreq>")), us(u("https://example.com/a", "<changefreq>daily</changefreq>"))},
		{sitemap.CodePriorityInvalid, us(u("https://example.com/a", "<priority>1.5</priority>")), us(u("https://example.com/a", "<priority>1.0</priority>"))},
		{sitemap.CodePriorityInvalid, us(u("https://example.com/a", "<priority>high</priority>")), us(u("https://example.com/a", "<priority>0.5</priority>"))},
		{sitemap.CodeElementUnknown, us(u("https://example.com/a", "<title>A</title>")), us(u("https://example.com/a", "<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>"))},
		{sitemap.CodeElementOrder, us(`<url><lastmod>2024-01-01</lastmod><loc>https://example.com/a</loc></url>`), us(u("https://example.com/a", "<lastmod>2024-01-01</lastmod>"))},
		{sitemap.CodeElementRepeated, us(u("https://example.com/a", "<lastmod>2024-01-01</lastmod><lastmod>2024-01-02</lastmod>")), us(u("https://example.com/a", "<lastmod>2024-01-01</lastmod><priority>1</priority>"))},
	}
}

// lintExtensionCases are the cases of the extensions and hreflang.
func lintExtensionCases() []lintCase {
	return []lintCase{
		{sitemap.CodeImageLocMissing, us(u("https://example.com/a", "<image:image></image:image>")), us(u("https://example.com/a", "<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>"))},
		{sitemap.CodeImageLocInvalid, us(u("https://example.com/a", "<image:image><image:loc>/i.jpg</image:loc></image:image>")), us(u("https://example.com/a", "<image:image><image:loc>https://cdn.example.net/i.jpg</image:loc></image:image>"))},
		{sitemap.CodeImageTooMany, us(u("https://example.com/a", many(1001, func(i int) string {
			return fmt.Sprintf("<image:image><image:loc>https://example.com/%d.jpg</image:loc></image:image>", i)
		}))), us(u("https://example.com/a", many(1000, func(i int) string {
			return fmt.Sprintf("<image:image><image:loc>https://example.com/%d.jpg</image:loc></image:image>", i)
		})))},
		{sitemap.CodeImageDeprecated, us(u("https://example.com/a", "<image:image><image:loc>https://example.com/i.jpg</image:loc><image:caption>C</image:caption></image:image>")), us(u("https://example.com/a", "<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>"))},
		{sitemap.CodeNewsMissing, us(u("https://example.com/a", "<news:news><news:title>T</news:title></news:news>")), us(u("https://example.com/a", "<news:news>"+news+"</news:news>"))},
		{sitemap.CodeNewsDateInvalid, us(u("https://example.com/a", "<news:news>"+strings.Replace(news, "2025-06-15", "15/06/2025", 1)+"</news:news>")), us(u("https://example.com/a", "<news:news>"+news+"</news:news>"))},
		{sitemap.CodeNewsTooOld, us(u("https://example.com/a", "<news:news>"+strings.Replace(news, "2025-06-15", "2025-06-12", 1)+"</news:news>")), us(u("https://example.com/a", "<news:news>"+strings.Replace(news, "2025-06-15", "2025-06-14", 1)+"</news:news>"))},
		{sitemap.CodeNewsTooMany, us(many(1001, func(i int) string {
			return u(fmt.Sprintf("https://example.com/%d", i), "<news:news>"+news+"</news:news>")
		})),
			us(many(1000, func(i int) string {
				return u(fmt.Sprintf("https://example.com/%d", i), "<news:news>"+news+"</news:news>")
			}))},
		{sitemap.CodeNewsLanguage, us(u("https://example.com/a", "<news:news>"+strings.Replace(news, ">en<", ">english<", 1)+"</news:news>")), us(u("https://example.com/a", "<news:news>"+strings.Replace(news, ">en<", ">zh-cn<", 1)+"</news:news>"))},
		{sitemap.CodeVideoMissing, us(u("https://example.com/a", "<video:video><video:title>T</video:title></video:video>")), us(u("https://example.com/a", "<video:video>"+vid+"</video:video>"))},
		{sitemap.CodeVideoDuration, us(u("https://example.com/a", "<video:video>"+vid+"<video:duration>28801</video:duration></video:video>")), us(u("https://example.com/a", "<video:video>"+vid+"<video:duration>28800</video:duration></video:video>"))},
		{sitemap.CodeVideoDuration, us(u("https://example.com/a", "<video:video>"+vid+"<video:duration>0</video:duration></video:video>")), us(u("https://example.com/a", "<video:video>"+vid+"<video:duration>1</video:duration></video:video>"))},
		{sitemap.CodeVideoRating, us(u("https://example.com/a", "<video:video>"+vid+"<video:rating>5.1</video:rating></video:video>")), us(u("https://example.com/a", "<video:video>"+vid+"<video:rating>5.0</video:rating></video:video>"))},
		{sitemap.CodeHreflangCode, us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="en_US" href="https://example.com/a"/>`)), us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="en-US" href="https://example.com/a"/><xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/a"/>`))},
		{sitemap.CodeHreflangCode, us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="english" href="https://example.com/a"/>`)), us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="zh-Hant-TW" href="https://example.com/a"/>`))},
		{sitemap.CodeHreflangSelf, us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a"/>`)), us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a"/><xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/>`))},
		{sitemap.CodeHreflangReturn, us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/b"/>`) + u("https://example.com/b", "")),
			us(u("https://example.com/a", `<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/b"/>`) +
				u("https://example.com/b", `<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/b"/>`) +
				u("https://example.com/c", `<xhtml:link rel="alternate" hreflang="de" href="https://example.com/c"/><xhtml:link rel="alternate" hreflang="fr" href="https://example.com/not-read"/>`))},
	}
}

// lintMaxPerCode is the default of LintOptions.MaxPerCode, as its comment
// gives it.
const lintMaxPerCode = 1000

func TestLintCodes(t *testing.T) {
	t.Parallel() // it measures no heap: on a second core beside the others
	cases := append(append(lintDocumentCases(), lintEntryCases()...), lintExtensionCases()...)
	for _, tc := range cases {
		t.Run(string(tc.code), func(t *testing.T) {
			bad := lintOf(t, lintBase, tc.bad, nil)
			if lintCount(bad, tc.code) == 0 {
				t.Errorf("no %s finding for the bad document:%s", tc.code, lintDump(bad))
			}
			good := lintOf(t, lintBase, tc.good, nil)
			if n := lintCount(good, tc.code); n != 0 {
				t.Errorf("%d %s findings for the good document:%s", n, tc.code, lintDump(good))
			}
		})
	}
}

// loc-outside-path: a sitemap in a directory lists the pages below it
// (the protocol's rule); the findings carry the severity of their code.
func TestLintOutsidePath(t *testing.T) {
	base := "https://example.com/shop/sitemap.xml"
	bad := lintOf(t, base, us(u("https://example.com/blog/a", "")), nil)
	if lintCount(bad, sitemap.CodeLocOutsidePath) != 1 || bad[0].Severity != sitemap.SeverityWarning || bad[0].URL != "https://example.com/blog/a" {
		t.Errorf("outside the directory:%s", lintDump(bad))
	}
	if good := lintOf(t, base, us(u("https://example.com/shop/a", "")), nil); len(good) != 0 {
		t.Errorf("below the directory:%s", lintDump(good))
	}
}

// A finding gives the line and the column of the entry, counted in the
// document as written, white space before the root element included.
func TestLintPosition(t *testing.T) {
	t.Parallel() // it measures no heap: on a second core beside the others
	doc := "\n\n<urlset " + lintNS + ">\n  <url><loc>https://example.com/a b</loc></url>\n</urlset>"
	fs := lintOf(t, lintBase, doc, nil)
	if len(fs) != 1 || fs[0].Line != 4 || fs[0].Column != 8 || fs[0].Document != lintBase {
		t.Fatalf("want one finding at 4:8 (after <url>):%s", lintDump(fs))
	}
	if want := lintBase + ":4:8: error loc-not-escaped: URL contains a space (https://example.com/a b)"; fs[0].String() != want {
		t.Errorf("String() = %q, want %q", fs[0].String(), want)
	}
	// A position deep into a document read through many refills of the
	// scanner's buffer.
	var b strings.Builder
	b.WriteString("<urlset " + lintNS + ">\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "<url><loc>https://example.com/%d</loc></url>\n", i)
	}
	b.WriteString("  <url><loc>/rel</loc></url>\n</urlset>")
	fs = lintOf(t, lintBase, b.String(), nil)
	if len(fs) != 1 || fs[0].Line != 20002 || fs[0].Column != 8 {
		t.Errorf("want one finding at 20002:8:%s", lintDump(fs))
	}
}

// SetStrict is ignored: lint reads tolerantly, and a document strict mode
// rejects as a whole gives its findings all the same.
func TestLintIgnoresStrict(t *testing.T) {
	doc := us(u("https://example.com/a?x&y", "") + u("https://example.com/b", "<priority>7</priority>"))
	var fs []sitemap.Finding
	s := sitemap.New().SetStrict(true)
	for f := range s.Lint(context.Background(), lintBase, strings.NewReader(doc), &sitemap.LintOptions{NoRobots: true}) {
		fs = append(fs, f)
	}
	if lintCount(fs, sitemap.CodeXMLSyntax) != 1 || lintCount(fs, sitemap.CodePriorityInvalid) != 1 {
		t.Errorf("strict set:%s", lintDump(fs))
	}
	if n := s.GetURLCount(); n != 2 {
		t.Errorf("the lint call read %d URLs, want 2 (tolerantly)", n)
	}
}

// lintServe serves files on loopback; a path that it lacks is a 404.
func lintServe(t *testing.T, files map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved.xml" {
			http.Redirect(w, r, "/sitemap.xml", http.StatusMovedPermanently)
			return
		}
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(strings.ReplaceAll(body, "SRV", "http://"+r.Host)))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func lintURL(t *testing.T, url string, o *sitemap.LintOptions) []sitemap.Finding {
	t.Helper()
	if o == nil {
		o = &sitemap.LintOptions{}
	}
	var out []sitemap.Finding
	for f := range sitemap.New().SetFetchTimeout(60).Lint(context.Background(), url, nil, o) {
		out = append(out, f)
	}
	return out
}

// http-status, redirected, nested-index and duplicate-loc across
// documents (info) over a tree served on loopback.
func TestLintTree(t *testing.T) {
	srv := lintServe(t, map[string]string{
		"/index.xml":   `<sitemapindex ` + lintNS + `><sitemap><loc>SRV/moved.xml</loc></sitemap><sitemap><loc>SRV/gone.xml</loc></sitemap><sitemap><loc>SRV/inner.xml</loc></sitemap></sitemapindex>`,
		"/inner.xml":   `<sitemapindex ` + lintNS + `><sitemap><loc>SRV/other.xml</loc></sitemap></sitemapindex>`,
		"/sitemap.xml": `<urlset ` + lintNS + `><url><loc>SRV/a</loc></url></urlset>`,
		"/other.xml":   `<urlset ` + lintNS + `><url><loc>SRV/a</loc></url></urlset>`,
	})
	fs := lintURL(t, srv.URL+"/index.xml", &sitemap.LintOptions{NoRobots: true})
	want := map[sitemap.Code]int64{sitemap.CodeHTTPStatus: 1, sitemap.CodeRedirected: 1, sitemap.CodeNestedIndex: 1, sitemap.CodeDuplicateLoc: 1}
	for code, n := range want {
		if got := lintCount(fs, code); got != n {
			t.Errorf("%d %s findings, want %d:%s", got, code, n, lintDump(fs))
		}
	}
	for _, f := range fs {
		switch f.Code {
		case sitemap.CodeDuplicateLoc:
			if f.Severity != sitemap.SeverityInfo {
				t.Errorf("duplicate across documents is %s, want info", f.Severity)
			}
		case sitemap.CodeHTTPStatus:
			if f.Document != srv.URL+"/gone.xml" || !strings.Contains(f.Message, "404") {
				t.Errorf("http-status: %v", f)
			}
		}
	}
	// A tree without those problems has none of them.
	clean := lintServe(t, map[string]string{
		"/index.xml":   `<sitemapindex ` + lintNS + `><sitemap><loc>SRV/sitemap.xml</loc></sitemap></sitemapindex>`,
		"/sitemap.xml": `<urlset ` + lintNS + `><url><loc>SRV/a</loc></url></urlset>`,
	})
	if fs := lintURL(t, clean.URL+"/index.xml", &sitemap.LintOptions{NoRobots: true}); len(fs) != 0 {
		t.Errorf("clean tree:%s", lintDump(fs))
	}
}

// robots-disallowed, and cross-submission: a URL on another host is no
// finding when that host's robots.txt lists the sitemap.
func TestLintRobots(t *testing.T) {
	other := lintServe(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow:\n"})
	site := lintServe(t, map[string]string{
		"/robots.txt":  "User-agent: *\nDisallow: /private\nAllow: /private/open$\n",
		"/sitemap.xml": us(u("SRV/public", "") + u("SRV/private/x", "") + u("SRV/private/open", "") + u(other.URL+"/p", "")),
	})
	fs := lintURL(t, site.URL+"/sitemap.xml", nil)
	if lintCount(fs, sitemap.CodeRobotsDisallowed) != 1 || lintCount(fs, sitemap.CodeLocOtherHost) != 1 {
		t.Fatalf("want one robots-disallowed and one loc-other-host:%s", lintDump(fs))
	}
	for _, f := range fs {
		if f.Code == sitemap.CodeRobotsDisallowed && !strings.HasSuffix(f.URL, "/private/x") {
			t.Errorf("robots-disallowed for %s", f.URL)
		}
	}
	// The other host's robots.txt names the sitemap: cross-submission.
	var crossSitemap string // set before the lint call that reads it
	cross := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow:\nSitemap: %s\n", crossSitemap)
	}))
	t.Cleanup(cross.Close)
	site2 := lintServe(t, map[string]string{"/sitemap.xml": us(u(cross.URL+"/p", ""))})
	crossSitemap = site2.URL + "/sitemap.xml"
	if fs := lintURL(t, crossSitemap, nil); lintCount(fs, sitemap.CodeLocOtherHost) != 0 {
		t.Errorf("cross-submitted:%s", lintDump(fs))
	}
	// NoRobots: no exception, and no robots.txt fetched.
	if fs := lintURL(t, crossSitemap, &sitemap.LintOptions{NoRobots: true}); lintCount(fs, sitemap.CodeLocOtherHost) != 1 {
		t.Errorf("NoRobots:%s", lintDump(fs))
	}
}

// fetch-failed and too-large (over 52,428,800 bytes decoded, gzipped here).
func TestLintFetchAndSize(t *testing.T) {
	t.Parallel() // it measures no heap: on a second core beside the others
	if fs := lintURL(t, "http://127.0.0.1:1/sitemap.xml", &sitemap.LintOptions{NoRobots: true}); lintCount(fs, sitemap.CodeFetchFailed) != 1 {
		t.Errorf("refused connection:%s", lintDump(fs))
	}
	var zb bytes.Buffer
	z := gzip.NewWriter(&zb)
	z.Write([]byte(`<urlset ` + lintNS + `><url><loc>https://example.com/a</loc></url>`))
	z.Write(bytes.Repeat([]byte(" "), 52428800))
	z.Write([]byte(`</urlset>`))
	z.Close()
	var fs []sitemap.Finding
	s := sitemap.New().SetMaxResponseSize(60 << 20)
	for f := range s.Lint(context.Background(), lintBase, bytes.NewReader(zb.Bytes()), &sitemap.LintOptions{NoRobots: true}) {
		fs = append(fs, f)
	}
	if lintCount(fs, sitemap.CodeTooLarge) != 1 {
		t.Errorf("over 50 MiB decoded:%s", lintDump(fs))
	}
	// Past the response size limit, the limit's error is too-large too.
	fs = fs[:0]
	s.SetMaxResponseSize(1000)
	for f := range s.Lint(context.Background(), lintBase, bytes.NewReader(zb.Bytes()), &sitemap.LintOptions{NoRobots: true}) {
		fs = append(fs, f)
	}
	if lintCount(fs, sitemap.CodeTooLarge) != 1 {
		t.Errorf("past the size limit:%s", lintDump(fs))
	}
}

// A document with a million findings: lint goes on to its end, lists the
// caps' worth and counts the rest in one summary finding of the code.
func TestLintMillionFindings(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`<urlset ` + lintNS + `>`)
	for range 1000000 {
		b.WriteString("<url></url>")
	}
	b.WriteString(`</urlset><!-- end -->`)
	var fs []sitemap.Finding
	// The call keeps a validation error of each entry, as Parse does, up
	// to its limit: a small limit leaves the heap to lint's own memory.
	peak := peakHeap(func() {
		for f := range newParser().SetMaxValidationErrors(1000).Lint(context.Background(), lintBase, bytes.NewReader(b.Bytes()), &sitemap.LintOptions{NoRobots: true}) {
			fs = append(fs, f)
		}
	})
	if n := lintCount(fs, sitemap.CodeLocMissing); n != 1000000 {
		t.Errorf("%d loc-missing findings counted, want 1,000,000", n)
	}
	// The listed loc-missing findings, too-many-urls, and the summary.
	if len(fs) != lintMaxPerCode+2 || fs[len(fs)-1].More != 1000000-lintMaxPerCode || lintCount(fs, sitemap.CodeTooManyURLs) != 1 {
		t.Errorf("%d findings listed, want %d, too-many-urls and a summary:%s", len(fs), lintMaxPerCode, lintDump(fs[len(fs)-2:]))
	}
	t.Logf("peak heap over the call: %d KiB for a document of %d KiB", peak>>10, b.Len()>>10)
	if peak > 32<<20 {
		t.Errorf("peak heap %d MiB", peak>>20)
	}
}

// The cap of the findings of a call.
func TestLintCapPerCall(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "<url><loc>/r%d</loc><priority>9</priority></url>", i)
	}
	fs := lintOf(t, lintBase, us(b.String()), &sitemap.LintOptions{NoRobots: true, MaxFindings: 10})
	listed := 0
	for _, f := range fs {
		if f.More == 0 {
			listed++
		}
	}
	if listed != 10 || lintCount(fs, sitemap.CodeLocInvalid) != 50 || lintCount(fs, sitemap.CodePriorityInvalid) != 50 {
		t.Errorf("%d listed:%s", listed, lintDump(fs))
	}
}

// A URL that cannot be read is a finding too.
func TestLintRootRefused(t *testing.T) {
	fs := lintURL(t, "ftp://example.com/sitemap.xml", nil)
	if len(fs) != 1 || fs[0].Code != sitemap.CodeLocInvalid {
		t.Errorf("ftp URL:%s", lintDump(fs))
	}
}

// The check that a document is UTF-8 sees characters cut by the ends of
// the reads: one byte a read, a valid document has no encoding finding,
// and a byte that is not UTF-8 is found at its offset.
func TestLintUTF8AcrossReads(t *testing.T) {
	good := us(u("https://example.com/caf\u00e9/\u65e5\u672c/\U0001F600", ""))
	read := func(doc string) []sitemap.Finding {
		var fs []sitemap.Finding
		for f := range sitemap.New().Lint(context.Background(), lintBase, iotest.OneByteReader(strings.NewReader(doc)), &sitemap.LintOptions{NoRobots: true}) {
			fs = append(fs, f)
		}
		return fs
	}
	if fs := read(good); len(fs) != 0 {
		t.Errorf("valid UTF-8, one byte a read:%s", lintDump(fs))
	}
	bad := strings.Replace(good, "\u65e5", "\xe6\x97", 1) // a character cut short
	fs := read(bad)
	at := fmt.Sprintf("offset %d ", strings.Index(bad, "\xe6\x97"))
	if lintCount(fs, sitemap.CodeEncoding) != 1 || !strings.Contains(fs[0].Message, at) {
		t.Errorf("want one encoding finding at %s:%s", at, lintDump(fs))
	}
}

// syncCounter is a store that counts its syncs.
type syncCounter struct {
	failingStore
	syncs atomic.Int32
}

func (s *syncCounter) Sync() error { s.syncs.Add(1); return nil }

// A lint call with a store syncs it when it ends, as ParseContext does,
// with EachURL (the records then put by the loop) and without.
func TestLintSyncsStore(t *testing.T) {
	srv := lintServe(t, map[string]string{"/s.xml": us(u("SRV/a", ""))})
	for _, each := range []func(sitemap.URL){nil, func(sitemap.URL) {}} {
		st := &syncCounter{}
		for range sitemap.New().SetStore(st).Lint(context.Background(), srv.URL+"/s.xml", nil, &sitemap.LintOptions{NoRobots: true, EachURL: each}) {
		}
		if n := st.syncs.Load(); n != 1 {
			t.Errorf("EachURL set %v: %d syncs, want 1", each != nil, n)
		}
	}
}

// duplicate-loc within one document is a warning whatever the order the
// documents of the tree are read in: here b.xml, which gives the location
// once, is read whole before a.xml, which gives it twice. The first of
// a.xml's is the note of a location another document gave; the second was
// a note too, as the set of locations kept only the first document.
func TestLintDuplicateWithinDocumentReadSecond(t *testing.T) {
	bRead := make(chan struct{})
	var once sync.Once
	a := `<urlset ` + lintNS + `><url><loc>https://example.com/x</loc></url><url><loc>https://example.com/x</loc></url></urlset>`
	srv := serve(t, map[string]route{
		"/index.xml": {Body: `<sitemapindex ` + lintNS + `><sitemap><loc>{base}/a.xml</loc></sitemap><sitemap><loc>{base}/b.xml</loc></sitemap></sitemapindex>`},
		"/a.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-bRead:
			case <-r.Context().Done():
			}
			io.WriteString(w, a)
		}},
		// b.xml's last entry makes a finding, which the loop sees once
		// b.xml's location has been recorded.
		"/b.xml": {Body: `<urlset ` + lintNS + `><url><loc>https://example.com/x</loc></url><url><loc>https://example.com/y</loc><changefreq>often</changefreq></url></urlset>`},
	})
	var got []string
	for f := range sitemap.New().Lint(context.Background(), srv.At("/index.xml"), nil, &sitemap.LintOptions{NoRobots: true}) {
		if f.Code == sitemap.CodeChangefreqInvalid {
			once.Do(func() { close(bRead) })
		}
		if f.Code == sitemap.CodeDuplicateLoc {
			got = append(got, strings.TrimPrefix(f.Document, srv.At(""))+" "+string(f.Severity))
		}
	}
	slices.Sort(got)
	if want := []string{"/a.xml info", "/a.xml warning"}; !slices.Equal(got, want) {
		t.Errorf("duplicate-loc findings %q, want %q", got, want)
	}
}

// The summary of the findings a cap left out gives the severity they had:
// duplicate-loc across documents is a note, and its summary is one too
// (it was the code's own, a warning, and the command counted the notes
// left out as warnings).
func TestLintCapSummaryKeepsSeverity(t *testing.T) {
	urls := `<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url><url><loc>https://example.com/c</loc></url>`
	srv := serve(t, map[string]route{
		"/index.xml": {Body: `<sitemapindex ` + lintNS + `><sitemap><loc>{base}/1.xml</loc></sitemap><sitemap><loc>{base}/2.xml</loc></sitemap></sitemapindex>`},
		"/1.xml":     {Body: `<urlset ` + lintNS + `>` + urls + `</urlset>`},
		"/2.xml":     {Body: `<urlset ` + lintNS + `>` + urls + `</urlset>`},
	})
	var got []string
	for f := range sitemap.New().Lint(context.Background(), srv.At("/index.xml"), nil, &sitemap.LintOptions{NoRobots: true, MaxPerCode: 1}) {
		if f.Code == sitemap.CodeDuplicateLoc {
			got = append(got, fmt.Sprintf("%s more=%d", f.Severity, f.More))
		}
	}
	if want := []string{"info more=0", "info more=2"}; !slices.Equal(got, want) {
		t.Errorf("duplicate-loc findings %q, want %q", got, want)
	}
}
