package report_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/report"
)

// site is a sitemap with a bad date, a priority out of range and a URL
// listed twice.
const site = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/a</loc><lastmod>2024-01-15</lastmod></url>
  <url><loc>https://example.com/b</loc><lastmod>2024-03-02</lastmod><priority>2</priority></url>
  <url><loc>https://example.com/c</loc><lastmod>2024-31-01</lastmod></url>
  <url><loc>https://example.com/a</loc></url>
</urlset>`

// The report of a call is gathered from the call's own events: AddURL
// is the EachURL of the options of Lint, AddFinding the body of its loop,
// and WriteHTML renders it with the tree of the call. The call keeps no
// URL.
func ExampleReport_WriteHTML() {
	rep := &report.Report{Now: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	s := sitemap.New()
	o := &sitemap.LintOptions{NoRobots: true, EachURL: rep.AddURL, Now: rep.Now}
	for f := range s.Lint(context.Background(), "https://example.com/sitemap.xml", strings.NewReader(site), o) {
		rep.AddFinding(f)
	}
	var page strings.Builder
	if err := rep.WriteHTML(&page, s.GetDocuments()); err != nil {
		fmt.Println(err)
		return
	}
	// The cards, and the bars of the histogram.
	card := regexp.MustCompile(`<p class="label">([^<]*)</p><p class="value">([^<]*)</p>`)
	for _, m := range card.FindAllStringSubmatch(page.String(), -1) {
		fmt.Printf("%s: %s\n", m[1], m[2])
	}
	fmt.Println("bars:", strings.Count(page.String(), `<rect class="bar"`))
	fmt.Println("URLs kept by the instance:", s.GetURLCount())
	// Output:
	// Documents: 1
	// URLs: 4
	// Errors: 1
	// Findings: 3
	// Newest lastmod: 2024-03-02
	// Oldest lastmod: 2024-01-15
	// Without lastmod: 50.0%
	// bars: 3
	// URLs kept by the instance: 0
}

// AddURL counts a URL's lastmod into the histogram and the cards, and
// keeps nothing else of it.
func ExampleReport_AddURL() {
	rep := &report.Report{Now: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	for _, d := range []string{"2024-01-15", "2024-01-20", "2024-04-01"} {
		t, _ := time.Parse(time.DateOnly, d)
		rep.AddURL(sitemap.URL{Loc: "https://example.com/" + d, LastMod: &sitemap.LastModTime{Time: t}})
	}
	rep.AddURL(sitemap.URL{Loc: "https://example.com/undated"})
	var page strings.Builder
	if err := rep.WriteHTML(&page, nil); err != nil {
		fmt.Println(err)
		return
	}
	bars := regexp.MustCompile(`data-month="([^"]*)" data-count="(\d+)"`)
	for _, m := range bars.FindAllStringSubmatch(page.String(), -1) {
		fmt.Println(m[1], m[2])
	}
	// Output:
	// 2024-01 2
	// 2024-02 0
	// 2024-03 0
	// 2024-04 1
}

// AddFinding counts a finding under its code and keeps the first places
// of each code; a summary finding of the caps of Lint adds its count.
func ExampleReport_AddFinding() {
	rep := &report.Report{}
	for i := range 7 {
		rep.AddFinding(sitemap.Finding{Code: sitemap.CodeLocNotEscaped, Severity: sitemap.SeverityError,
			Document: "https://example.com/sitemap.xml", Line: i + 3, Column: 8, URL: "https://example.com/a b"})
	}
	rep.AddFinding(sitemap.Finding{Code: sitemap.CodeLocNotEscaped, Severity: sitemap.SeverityError, More: 993})
	var page strings.Builder
	if err := rep.WriteHTML(&page, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(regexp.MustCompile(`<strong>loc-not-escaped</strong>: [^<]*`).FindString(page.String()))
	fmt.Println("places listed:", strings.Count(page.String(), "column 8"))
	// Output:
	// <strong>loc-not-escaped</strong>: 1,000 — a space, control or one of &#34; &lt; &gt; \ ^ ` { | } in &lt;loc&gt;
	// places listed: 5
}

// This is how a page is saved: WriteHTML writes to any io.Writer.
func ExampleReport() {
	rep := &report.Report{Title: "The sitemaps of example.com"}
	f, err := os.CreateTemp("", "report-*.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()
	fmt.Println(rep.WriteHTML(f, nil))
	// Output:
	// <nil>
}
