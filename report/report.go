// Package report renders what one call of [sitemap.S.Lint] saw as one
// self-contained HTML page, for the person who has to decide what to fix:
// summary cards, the tree of the call folded by index, the findings
// grouped by code, and a histogram of lastmod by month.
//
// A Report gathers the events of the call as they come (AddURL from
// [sitemap.LintOptions].EachURL, AddFinding from the loop over the
// findings) and keeps counts and samples only, never the URLs: its memory
// is bounded however large the site, and so is the page, which lists no
// URL one by one beyond the first places of each code. WriteHTML renders
// it with the tree of the call ([sitemap.S.GetDocuments]).
//
// The page needs nothing else: its style is inline, it has no script, and
// its Content-Security-Policy forbids every script and every request, so
// that it opens the same offline, with JavaScript off, and in print. It
// folds with <details>, and is made of landmarks, headed tables and real
// links (to HTTP(S) URLs only). Everything a document or a server
// controls is escaped by html/template for the place it stands in.
//
// A call with a store and [sitemap.Incremental].Changes on also gets the
// changes since the last run: a card, and a section after the cards with
// the counts of the call (new, lastmod changed, gone, unchanged, unknown)
// and the first 20 URLs new, changed and gone, which AddURL keeps as they
// come (the URLs gone are handed to EachURL too, and counted only there).
package report

import (
	_ "embed"
	"html/template"
	"io"
	"time"

	"github.com/gositemap/sitemap"
)

// Report is what a report page shows, gathered from the events of one
// call. Its zero value is ready to use; it is not safe for concurrent use
// (EachURL is called on the goroutine of the loop over the findings,
// between two of them, so one loop feeds it both).
type Report struct {
	// Title heads the page; "" is "Sitemap report" and the URL given.
	Title string
	// Now is the time the report is made at, shown on the page and the
	// end of the histogram; the zero time is the time WriteHTML runs.
	Now time.Time
	// Display writes a URL as the page shows it (a local file's URL as
	// its path, say); nil shows it as it is. A URL is a link only when it
	// is an absolute HTTP(S) URL.
	Display func(url string) string

	urls, withLastmod int64
	oldest, newest    time.Time
	months            map[int32]int64 // year*12 + month-1 → URLs
	codes             map[sitemap.Code]*codeGroup
	severities        map[sitemap.Severity]int64
	changes           changeSamples
}

// codeGroup is what the page shows of the findings of one code.
type codeGroup struct {
	count  int64
	places []sitemap.Finding // the first maxPlaces
}

// maxPlaces is how many places the page lists for a code.
const maxPlaces = 5

// AddURL counts u: its lastmod, or that it has none; and keeps it when it
// is one of the first of its change (new, lastmod changed, gone). A URL
// gone is no URL of the call: it is not counted. Pass it as
// [sitemap.LintOptions].EachURL.
func (r *Report) AddURL(u sitemap.URL) {
	if r.addChange(u) {
		return
	}
	r.urls++
	if u.LastMod == nil {
		return
	}
	t := u.LastMod.UTC()
	if r.withLastmod == 0 || t.Before(r.oldest) {
		r.oldest = t
	}
	if r.withLastmod == 0 || t.After(r.newest) {
		r.newest = t
	}
	r.withLastmod++
	if r.months == nil {
		r.months = map[int32]int64{}
	}
	r.months[monthOf(t)]++
}

// AddFinding counts f under its code and keeps it when it is one of the
// first places of its code. A summary finding of the caps of Lint (More
// set) adds what it counts.
func (r *Report) AddFinding(f sitemap.Finding) {
	if r.codes == nil {
		r.codes, r.severities = map[sitemap.Code]*codeGroup{}, map[sitemap.Severity]int64{}
	}
	g := r.codes[f.Code]
	if g == nil {
		g = &codeGroup{}
		r.codes[f.Code] = g
	}
	n := max(f.More, 1)
	g.count += n
	r.severities[f.Severity] += n
	if f.More == 0 && len(g.places) < maxPlaces {
		g.places = append(g.places, f)
	}
}

//go:embed page.html
var pageText string

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"num": func(n int64) string { return number(n) }, "int64": func(n int) int64 { return int64(n) },
}).Parse(pageText))

// WriteHTML writes the page of the report to w, with docs, the tree of
// the call ([sitemap.S.GetDocuments] once the loop over the findings has
// ended).
func (r *Report) WriteHTML(w io.Writer, docs []sitemap.Document) error {
	return page.Execute(w, r.view(docs))
}
