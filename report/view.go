package report

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

// This file turns a Report and the tree of its call into what the
// template shows: strings and numbers only, each bounded.

// The bounds of the page.
const (
	maxRows     = 1000 // documents listed in the tree, in all
	maxChildren = 300  // documents listed under one document
	maxMonths   = 120  // bars of the histogram
	maxText     = 300  // characters shown of a URL, a message, a validator or an error
	maxHref     = 8192 // bytes of the longest URL that is a link
)

type view struct {
	Title, Made string
	Cards       []card
	Roots       []*node
	Hidden      int // documents of the tree not listed
	Docs        int
	Codes       []codeView
	Findings    int64
	Hist        *histogram
	Uniform     *codeView    // the findings of lastmod-uniform, nil when none
	Changes     *changesView // nil when change detection was off
}

type card struct{ Label, Value, Note, Class string }

type link struct{ Text, Href string }

// row is one document of the tree.
type row struct {
	URL, Final                      link
	Found, Format, Status, Class    string
	URLs, Errors, Bytes, Time, HTTP string
	ETag, LastModified, LastMod     string
	Err                             string
}

// node is a document that lists others: its row, the rows of what it
// lists, and a node of each of those that lists others in turn.
type node struct {
	Row         row
	Children    []row
	Nested      []*node
	More        int    // documents it lists that are not shown
	Docs, URLs  string // totals of what lies below it
	Errors      string
	ErrorsBelow int
	Depth       int
}

type codeView struct {
	Code, Severity, What, Todo string
	Count                      string
	Places                     []placeView
	More                       int64 // findings beyond the places shown
}

type placeView struct {
	Document, URL  link
	Where, Message string
}

type histogram struct {
	Bars                  []bar
	Width, Height         int
	From, To              string
	Earlier, Later, Total string
	Max                   string
	Years                 []tick
}

type bar struct {
	Month, Count string
	X, Y, W, H   int
	N            int64
}

type tick struct {
	X    int
	Year string
}

func (r *Report) view(docs []sitemap.Document) view {
	now := r.Now
	if now.IsZero() {
		now = time.Now()
	}
	v := view{Title: r.Title, Made: now.UTC().Format("2006-01-02 15:04 UTC"), Docs: len(docs)}
	if v.Title == "" {
		v.Title = "Sitemap report"
		if len(docs) > 0 {
			v.Title += ": " + r.display(docs[0].URL)
		}
	}
	v.Title = clip(v.Title)
	v.Cards = r.cards(docs)
	if v.Changes = r.changesView(docs); v.Changes != nil {
		v.Cards = append(v.Cards, changesCard(v.Changes, docs[0].Changes))
	}
	v.Roots, v.Hidden = r.tree(docs)
	v.Codes, v.Findings = r.codeViews()
	v.Hist = r.histogram(now)
	for i := range v.Codes {
		if v.Codes[i].Code == string(sitemap.CodeLastmodUniform) {
			v.Uniform = &v.Codes[i]
		}
	}
	return v
}

func (r *Report) display(u string) string {
	if r.Display != nil {
		return r.Display(u)
	}
	return u
}

// linkOf is u as the page shows it, a link when it is an absolute HTTP(S)
// URL that Display shows as it is (a local file's is none), of at most
// maxHref bytes (a longer one is no URL a server takes, and html/template
// took a second to escape one of a megabyte).
func (r *Report) linkOf(u string) link {
	l := link{Text: r.display(u)}
	if len(u) <= maxHref && l.Text == u {
		if p, err := url.Parse(u); err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" {
			l.Href = u
		}
	}
	l.Text = clip(l.Text)
	return l
}

// clip cuts s to maxText characters: what a document or a server wrote is
// shown in part when it is long, so that the page stays small whatever
// they write (the whole is in the output of sitemap lint). Its controls
// (bidirectional ones among them, which would show a URL's end reversed)
// are written as escapes, as every output of the command writes them.
func clip(s string) string {
	more := ""
	if len(s) > maxText {
		n := 0
		for i := range s {
			if n == maxText {
				s, more = s[:i], "…"
				break
			}
			n++
		}
	}
	return printable.Escape(s) + more
}

func (r *Report) cards(docs []sitemap.Document) []card {
	byStatus := map[sitemap.Status]int{}
	var urls, errs int64
	for _, d := range docs {
		byStatus[d.Status]++
		urls += int64(d.URLs)
		errs += int64(d.Errors)
	}
	statuses := make([]string, 0, len(byStatus))
	for st, n := range byStatus {
		statuses = append(statuses, fmt.Sprintf("%s %s", number(int64(n)), st))
	}
	slices.Sort(statuses)
	docCard := card{Label: "Documents", Value: number(int64(len(docs))), Note: strings.Join(statuses, ", "), Class: "ok"}
	if byStatus[sitemap.StatusFailed] > 0 || byStatus[sitemap.StatusPartial] > 0 {
		docCard.Class = "bad"
	}
	errCard := card{Label: "Errors", Value: number(errs), Note: "recorded by the call", Class: "ok"}
	if errs > 0 {
		errCard.Class = "bad"
	}
	sev := r.severities
	findCard := card{Label: "Findings", Value: number(sev[sitemap.SeverityError] + sev[sitemap.SeverityWarning] + sev[sitemap.SeverityInfo]),
		Note:  counted(sev[sitemap.SeverityError], "error") + ", " + counted(sev[sitemap.SeverityWarning], "warning") + ", " + counted(sev[sitemap.SeverityInfo], "note"),
		Class: "ok"}
	switch {
	case sev[sitemap.SeverityError] > 0:
		findCard.Class = "bad"
	case sev[sitemap.SeverityWarning] > 0:
		findCard.Class = "warn"
	}
	cards := []card{docCard, {Label: "URLs", Value: number(urls), Note: "in the documents read"}, errCard, findCard}
	newest, oldest, without := card{Label: "Newest lastmod", Value: "none"}, card{Label: "Oldest lastmod", Value: "none"}, card{Label: "Without lastmod", Value: "n/a"}
	if r.withLastmod > 0 {
		newest.Value, oldest.Value = r.newest.Format("2006-01-02"), r.oldest.Format("2006-01-02")
	}
	if r.urls > 0 {
		without.Value = percent(r.urls-r.withLastmod, r.urls)
		without.Note = fmt.Sprintf("%s of %s", number(r.urls-r.withLastmod), counted(r.urls, "URL"))
	} else if urls > 0 {
		without.Note = "the URLs were not given to the report"
	}
	return append(cards, newest, oldest, without)
}

// tree returns the nodes of the documents that head the tree (the one
// given, and any whose parent is unknown), and how many documents were
// left out of the page.
func (r *Report) tree(docs []sitemap.Document) ([]*node, int) {
	children := make([][]int, len(docs))
	var roots []int
	for i, d := range docs {
		if d.Parent >= 0 && d.Parent < len(docs) && d.Parent != i {
			children[d.Parent] = append(children[d.Parent], i)
		} else {
			roots = append(roots, i)
		}
	}
	// Totals below each document, children before parents: a child comes
	// after its parent in docs, but a cycle of bad parents is cut by seen.
	type total struct{ docs, urls, errs int }
	totals := make([]total, len(docs))
	var sum func(i int, seen map[int]bool) total
	sum = func(i int, seen map[int]bool) total {
		t := total{1, docs[i].URLs, docs[i].Errors}
		seen[i] = true
		for _, c := range children[i] {
			if !seen[c] {
				ct := sum(c, seen)
				t.docs, t.urls, t.errs = t.docs+ct.docs, t.urls+ct.urls, t.errs+ct.errs
			}
		}
		totals[i] = t
		return t
	}
	seen := map[int]bool{}
	for _, i := range roots {
		sum(i, seen)
	}
	budget := maxRows
	var build func(i, depth int) *node
	build = func(i, depth int) *node {
		n := &node{Row: r.row(&docs[i]), Depth: depth,
			Docs: number(int64(totals[i].docs - 1)), URLs: number(int64(totals[i].urls)), Errors: number(int64(totals[i].errs))}
		budget--
		list := slices.Clone(children[i])
		// What went wrong first, then the rest in the order of the call.
		slices.SortStableFunc(list, func(a, b int) int { return cmp.Compare(rank(&docs[a]), rank(&docs[b])) })
		shown := min(len(list), maxChildren, max(budget, 0))
		n.More = len(list) - shown
		for _, c := range list[:shown] {
			n.Children = append(n.Children, r.row(&docs[c]))
		}
		budget -= shown
		for _, c := range list[:shown] {
			if len(children[c]) > 0 && budget > 0 {
				n.Nested = append(n.Nested, build(c, depth+1))
			}
		}
		return n
	}
	var out []*node
	for _, i := range roots {
		if budget > 0 {
			out = append(out, build(i, 0))
		}
	}
	return out, max(len(docs)-(maxRows-budget), 0)
}

// rank orders the documents a document lists: failed first, then those
// read in part or not at all, then those with errors, then the rest.
func rank(d *sitemap.Document) int {
	switch class(d) {
	case "bad":
		return 0
	case "warn":
		return 1
	}
	if d.Errors > 0 {
		return 2
	}
	return 3
}

func class(d *sitemap.Document) string {
	switch d.Status {
	case sitemap.StatusFailed:
		return "bad"
	case sitemap.StatusParsed, sitemap.StatusUnchanged, sitemap.StatusNotModifiedSince, sitemap.StatusReading, sitemap.StatusQueued:
		return "ok"
	}
	return "warn"
}

func (r *Report) row(d *sitemap.Document) row {
	w := row{URL: r.linkOf(d.URL), Found: string(d.Found), Format: string(d.Format), Status: string(d.Status), Class: class(d),
		URLs: number(int64(d.URLs)), Errors: number(int64(d.Errors)), ETag: clip(d.ETag), LastModified: clip(d.LastModified)}
	if d.FinalURL != "" && d.FinalURL != d.URL {
		w.Final = r.linkOf(d.FinalURL)
	}
	if d.WireBytes > 0 || d.DecodedBytes > 0 {
		w.Bytes = byteSize(d.DecodedBytes)
		if d.WireBytes != d.DecodedBytes && d.WireBytes > 0 {
			w.Bytes += " (" + byteSize(d.WireBytes) + " on the wire)"
		}
	}
	if d.Duration > 0 {
		w.Time = d.Duration.Round(time.Millisecond / 10).String()
	}
	if d.HTTPStatus != 0 {
		w.HTTP = strconv.Itoa(d.HTTPStatus)
	}
	if d.LastMod != nil {
		w.LastMod = d.LastMod.UTC().Format("2006-01-02")
	}
	if d.Err != nil {
		w.Err = clip(d.Err.Error())
	}
	return w
}

var severityRank = map[sitemap.Severity]int{sitemap.SeverityError: 0, sitemap.SeverityWarning: 1, sitemap.SeverityInfo: 2}

func (r *Report) codeViews() ([]codeView, int64) {
	var out []codeView
	var total int64
	for code, g := range r.codes {
		what, todo := code.Help()
		cv := codeView{Code: string(code), Severity: string(code.Severity()), What: what, Todo: todo,
			Count: number(g.count), More: g.count - int64(len(g.places))}
		for _, f := range g.places {
			p := placeView{Document: r.linkOf(f.Document), Message: clip(f.Message), Where: "the whole document"}
			if f.Line > 0 {
				p.Where = fmt.Sprintf("line %d, column %d", f.Line, f.Column)
			}
			if f.URL != "" {
				p.URL = r.linkOf(f.URL)
			}
			cv.Places = append(cv.Places, p)
		}
		total += g.count
		out = append(out, cv)
	}
	slices.SortFunc(out, func(a, b codeView) int {
		return cmp.Or(cmp.Compare(severityRank[sitemap.Severity(a.Severity)], severityRank[sitemap.Severity(b.Severity)]),
			cmp.Compare(r.codes[sitemap.Code(b.Code)].count, r.codes[sitemap.Code(a.Code)].count), strings.Compare(a.Code, b.Code))
	})
	return out, total
}

// monthOf numbers the month of t.
func monthOf(t time.Time) int32 { return int32(t.Year())*12 + int32(t.Month()) - 1 }

func monthName(m int32) string { return fmt.Sprintf("%04d-%02d", m/12, m%12+1) }

// histogram draws a bar for each month from the oldest lastmod (at most
// maxMonths back) to the newest one that is not after the month of now;
// the lastmods before and after are counted, not drawn.
func (r *Report) histogram(now time.Time) *histogram {
	if r.withLastmod == 0 {
		return nil
	}
	last := min(monthOf(r.newest), monthOf(now.UTC()))
	first := max(monthOf(r.oldest), last-maxMonths+1)
	if first > last {
		first = last // every lastmod is in the future
	}
	var earlier, later, top int64
	for m, n := range r.months {
		switch {
		case m < first:
			earlier += n
		case m > last:
			later += n
		default:
			top = max(top, n)
		}
	}
	const gap, height, axis = 2, 120, 16
	barW := min(max(600/int(last-first+1), 4), 40) - gap
	h := &histogram{Height: height + axis, From: monthName(first), To: monthName(last),
		Earlier: number(earlier), Later: number(later), Total: number(r.withLastmod), Max: number(top)}
	for m := first; m <= last; m++ {
		n := r.months[m]
		x := int(m-first) * (barW + gap)
		bh := 0
		if top > 0 {
			bh = int((n*height + top - 1) / top) // a month with one URL still shows
		}
		h.Bars = append(h.Bars, bar{Month: monthName(m), Count: number(n), N: n, X: x, Y: height - bh, W: barW, H: bh})
		if m%12 == 0 || m == first {
			h.Years = append(h.Years, tick{X: x, Year: strconv.Itoa(int(m / 12))})
		}
	}
	h.Width = len(h.Bars)*(barW+gap) + 30
	return h
}

// number writes n with a comma between thousands.
func number(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// counted writes n and noun, plural unless n is 1.
func counted(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return number(n) + " " + noun + "s"
}

// byteSize writes a number of bytes in B, KiB or MiB.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// percent writes n of total as a percentage.
func percent(n, total int64) string {
	if total == 0 {
		return "0%"
	}
	return strconv.FormatFloat(float64(n)*100/float64(total), 'f', 1, 64) + "%"
}
