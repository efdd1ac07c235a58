package report_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/report"
	"golang.org/x/net/html"
)

// hostile is text a document or a server controls that would run as
// script, or break out of where it stands, if it were not escaped.
const hostile = `"'><script>alert(1)</script><img src=x onerror=alert(2)></title></style><!--`

// render renders rep with docs, failing the test on an error.
func render(t *testing.T, rep *report.Report, docs []sitemap.Document) string {
	t.Helper()
	var b strings.Builder
	if err := rep.WriteHTML(&b, docs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The elements and attributes the page is made of: anything else came
// from a document.
var (
	elements = []string{"html", "head", "meta", "title", "style", "body", "a", "header", "h1", "h2", "p", "nav", "ul", "li",
		"main", "section", "table", "caption", "thead", "tbody", "tr", "th", "td", "details", "summary", "strong", "span",
		"br", "figure", "svg", "desc", "rect", "line", "text", "figcaption", "footer"}
	attributes = []string{"lang", "charset", "name", "content", "http-equiv", "class", "href", "rel", "id", "aria-labelledby",
		"aria-label", "scope", "open", "role", "width", "height", "viewbox", "xmlns", "data-month", "data-count",
		"x", "y", "x1", "y1", "x2", "y2"}
)

// checkPage parses page as a browser would and fails the test for an
// element or an attribute the page is not made of, a link that is not to
// an HTTP(S) URL or a place of the page, or a comment; it returns the
// text of the page, what a reader sees.
func checkPage(t *testing.T, page string) (text string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for n := range doc.Descendants() {
		switch n.Type {
		case html.CommentNode:
			t.Errorf("a comment in the page: %q", n.Data)
		case html.TextNode:
			b.WriteString(n.Data)
			b.WriteByte('\n')
		case html.ElementNode:
			if !slices.Contains(elements, n.Data) {
				t.Errorf("element <%s> in the page", n.Data)
			}
			for _, a := range n.Attr {
				if !slices.Contains(attributes, strings.ToLower(a.Key)) {
					t.Errorf("attribute %s=%q on <%s>", a.Key, a.Val, n.Data)
				}
				if a.Key == "href" {
					u, err := url.Parse(a.Val)
					if err != nil || !(u.Scheme == "http" || u.Scheme == "https" || strings.HasPrefix(a.Val, "#")) {
						t.Errorf("a link to %q", a.Val)
					}
				}
			}
		}
	}
	return b.String()
}

// Issue 34: a title, URLs, validators, error messages and findings that
// try to run script or break the page show as text, and no link leads to
// a javascript: URL.
func TestHostileTextShowsAsText(t *testing.T) {
	rep := &report.Report{Title: "Report " + hostile, Now: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	rep.AddFinding(sitemap.Finding{Code: sitemap.CodeLocInvalid, Severity: sitemap.SeverityError,
		Document: "https://example.com/sitemap.xml?q=" + hostile, Line: 3, Column: 8, URL: "javascript:alert(3)", Message: "message " + hostile})
	rep.AddFinding(sitemap.Finding{Code: sitemap.CodeLastmodUniform, Severity: sitemap.SeverityInfo,
		Document: "javascript:alert(4)//" + hostile, Message: hostile})
	docs := []sitemap.Document{
		{URL: "https://example.com/sitemap.xml?q=" + hostile, Parent: -1, Found: sitemap.FoundRoot, Status: sitemap.StatusParsed,
			Format: sitemap.FormatIndex, FinalURL: "javascript:alert(5)", ETag: `W/"` + hostile + `"`, LastModified: hostile},
		{URL: "javascript:alert(6)", Parent: 0, Depth: 1, Found: sitemap.FoundIndex, Status: sitemap.StatusFailed,
			Err: errors.New("fetch: " + hostile), ContentType: hostile},
		{URL: "https://example.com/a.xml#" + hostile, Parent: 0, Depth: 1, Found: sitemap.FoundIndex, Status: sitemap.StatusParsed},
	}
	page := render(t, rep, docs)
	text := checkPage(t, page)
	for _, want := range []string{"Report " + hostile, "message " + hostile, "fetch: " + hostile, `W/"` + hostile + `"`, "javascript:alert(6)", "javascript:alert(3)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "<img") {
		t.Error("the page holds a tag of the documents")
	}
}

// A bidirectional override or a C1 control in a URL, a validator, a
// message or an error shows as its escape, as in every other output: a
// reader would see the end of the URL reversed (a.exe shown as exe.a).
func TestHostileControlsShowEscaped(t *testing.T) {
	const spoof = "https://example.com/a\u202egpj.exe\u009b"
	rep := &report.Report{Now: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	rep.AddFinding(sitemap.Finding{Code: sitemap.CodeLocNotEscaped, Severity: sitemap.SeverityError,
		Document: spoof, URL: spoof, Message: "m " + spoof})
	docs := []sitemap.Document{{URL: spoof, Parent: -1, Status: sitemap.StatusFailed, ETag: spoof, LastModified: spoof, Err: errors.New(spoof)}}
	page := render(t, rep, docs)
	if strings.ContainsAny(page, "\u202e\u009b") {
		t.Error("the page holds a control as it is")
	}
	if n := strings.Count(checkPage(t, page), `a\u202egpj.exe\u009b`); n < 6 {
		t.Errorf("the escaped URL shows %d times", n)
	}
}

// Issue 34: a sitemap whose locations, dates and messages try the same,
// read by Lint, shows them as text.
func TestHostileSitemapReport(t *testing.T) {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>javascript:alert(1)</loc></url>
  <url><loc>https://example.com/&lt;script&gt;alert(2)&lt;/script&gt;</loc><lastmod>&lt;script&gt;</lastmod></url>
  <url><loc>https://example.com/"onmouseover="alert(3)</loc><changefreq>&lt;/style&gt;&lt;script&gt;alert(4)&lt;/script&gt;</changefreq></url>
</urlset>`
	rep := &report.Report{}
	s := sitemap.New()
	for f := range s.Lint(context.Background(), "https://example.com/sitemap.xml?<script>", strings.NewReader(doc), &sitemap.LintOptions{NoRobots: true, EachURL: rep.AddURL}) {
		rep.AddFinding(f)
	}
	page := render(t, rep, s.GetDocuments())
	text := checkPage(t, page)
	for _, want := range []string{"javascript:alert(1)", "https://example.com/<script>alert(2)</script>"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
}

// Issue 34: the page is bounded however large the call: a tree of 20,000
// documents and findings of every code up to the caps of Lint make a page
// that lists at most the documents and the places it says, well under
// 1 MB, and no page URL beyond the places.
func TestReportBounded(t *testing.T) {
	rep := &report.Report{Now: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	docs := []sitemap.Document{{URL: "https://example.com/index.xml", Parent: -1, Status: sitemap.StatusParsed, Format: sitemap.FormatIndex}}
	for i := range 20000 {
		st := sitemap.StatusParsed
		if i%1000 == 999 {
			st = sitemap.StatusFailed // listed first
		}
		docs = append(docs, sitemap.Document{URL: fmt.Sprintf("https://example.com/s%d.xml", i), Parent: 0, Depth: 1,
			Status: st, Format: sitemap.FormatURLSet, URLs: 50000})
	}
	codes := []sitemap.Code{sitemap.CodeLocInvalid, sitemap.CodeDuplicateLoc, sitemap.CodeLastmodFuture, sitemap.CodeElementUnknown}
	for i := range 1_000_000 {
		t := time.Date(2000+i%30, time.Month(1+i%12), 1, 0, 0, 0, 0, time.UTC)
		rep.AddURL(sitemap.URL{Loc: fmt.Sprint("https://example.com/p", i), LastMod: &sitemap.LastModTime{Time: t}})
	}
	for i := range 4000 {
		code := codes[i%len(codes)]
		rep.AddFinding(sitemap.Finding{Code: code, Severity: code.Severity(), Document: "https://example.com/s1.xml",
			Line: i + 1, Column: 1, URL: fmt.Sprint("https://example.com/page-", i), Message: "m"})
	}
	page := render(t, rep, docs)
	if len(page) > 1<<20 {
		t.Errorf("the page is %d bytes", len(page))
	}
	checkPage(t, page)
	if n := strings.Count(page, `https://example.com/page-`); n > 5*len(codes)*2 {
		t.Errorf("%d page URLs on the page", n)
	}
	if n := strings.Count(page, `<td class="st bad">failed`); n != 20 {
		t.Errorf("%d failed documents listed, want all 20 first", n)
	}
	if n := strings.Count(page, `<rect class="bar"`); n != 120 {
		t.Errorf("%d bars, want the 120 months that end at the newest", n)
	}
	// 20,000 sitemaps of 50,000 URLs; 300 of them listed, the failed
	// first, and the rest counted.
	for _, want := range []string{`<p class="value">1,000,000,000</p>`, "19,700 more documents it lists", `<p class="value">0.0%</p>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
}

// Lastmods after the month of the report are counted, not drawn, and the
// histogram does not run into the future.
func TestHistogramFuture(t *testing.T) {
	rep := &report.Report{Now: time.Date(2024, 6, 15, 0, 0, 0, 0, time.UTC)}
	for _, d := range []string{"2024-05-01", "2024-06-01", "9999-12-31"} {
		tm, _ := time.Parse(time.DateOnly, d)
		rep.AddURL(sitemap.URL{LastMod: &sitemap.LastModTime{Time: tm}})
	}
	page := render(t, rep, nil)
	if n := strings.Count(page, `<rect class="bar"`); n != 2 {
		t.Errorf("%d bars, want 2 (May and June 2024)", n)
	}
	if !strings.Contains(page, "1 later than this month, in the future, are not drawn") {
		t.Error("the lastmod in the future is not counted")
	}
}

// What a server or a document writes is shown in part when it is long:
// a reason phrase, an ETag, a message and a URL of a megabyte each made a
// page of as many megabytes a document. Lastmods at the ends of the
// calendar, in zones that move them past a year's end, draw a sane
// histogram.
func TestReportHostileSizes(t *testing.T) {
	huge := strings.Repeat("é<", 1<<19)
	rep := &report.Report{Title: huge, Now: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	docs := []sitemap.Document{{URL: "https://example.com/index.xml", Parent: -1, Status: sitemap.StatusParsed, Format: sitemap.FormatIndex}}
	for i := range 50 {
		docs = append(docs, sitemap.Document{URL: fmt.Sprintf("https://example.com/%d/%s", i, huge), Parent: 0, Depth: 1,
			Status: sitemap.StatusFailed, Err: errors.New(huge), ETag: huge, LastModified: huge, FinalURL: "https://example.com/f" + huge})
		rep.AddFinding(sitemap.Finding{Code: sitemap.Code(fmt.Sprint("code-", i%10)), Severity: sitemap.SeverityError,
			Document: docs[i].URL, URL: huge, Message: huge})
	}
	for _, d := range []string{"0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00", "2024-05-31T23:30:00-00:45"} {
		tm, err := time.Parse(time.RFC3339, d)
		if err != nil {
			t.Fatal(err)
		}
		rep.AddURL(sitemap.URL{LastMod: &sitemap.LastModTime{Time: tm}})
	}
	page := render(t, rep, docs)
	if len(page) > 1<<20 {
		t.Errorf("the page is %d bytes", len(page))
	}
	text := checkPage(t, page)
	if !strings.Contains(text, "é<é<é<") || !strings.Contains(text, "…") {
		t.Error("the long texts are not shown in part")
	}
	if n := strings.Count(page, `<rect class="bar"`); n != 120 || !strings.Contains(page, `data-month="2024-06" data-count="1"`) {
		t.Errorf("%d bars; want 120, to June 2024, which has one", n)
	}
	if !strings.Contains(page, "1 earlier than 2014-07") || !strings.Contains(page, "1 later than this month") {
		t.Error("the lastmods at the ends of the calendar are not counted")
	}
}
