package sitemap

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/printable"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is lint: an observer of the pipeline of a call. It attaches
// its hooks (hooks.go) when its call starts: the fetch, decode, scanner,
// parse and translate stages tell it what they see while the call runs,
// and it hands its findings, capped, to the loop of Lint as it makes them;
// it keeps the compact sets of the checks across documents (and the
// <lastmod> each index gives its sitemaps). The checks of one entry are in
// lint_checks.go, those of the extensions in lint_ext.go, those of the
// sitemaps schema in lint_schema.go, robots.txt in lint_robots.go.

// Finding is one problem that lint found.
type Finding struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	// Document is the URL the document was requested as (or given as).
	Document string `json:"document"`
	// Line and Column are where in the document the finding is: the line
	// from 1, and the byte of the line from 1, counted in the document as
	// it is read, decompressed, after a byte order mark and, for an XML
	// document in another encoding than UTF-8, in the UTF-8 it was
	// transcoded to. In an XML document it is where the scanner was, for
	// a finding about an entry the end of the entry's start tag. In the
	// formats read by line it is where the value starts: a URL line of a
	// text sitemap (Column 1), a Sitemap: line of a robots.txt (past the
	// directive and its colon). Both are 0 for a finding about a document
	// as a whole.
	Line   int `json:"line"`
	Column int `json:"column"`
	// URL is the location of the entry the finding is about, as the
	// document writes it, "" when it is about no entry.
	URL     string `json:"url,omitempty"`
	Message string `json:"message"`
	// More is set on the one summary finding of a code whose findings
	// went past the caps of [LintOptions]: how many of them were left
	// out. It is 0 on every other finding.
	More int64 `json:"more,omitempty"`
}

// String returns the finding as the command prints it:
// DOCUMENT:LINE:COL: SEVERITY CODE: message, and the URL of the entry in
// brackets when there is one, with what a terminal would act on in that
// URL, as the document writes it, escaped.
func (f Finding) String() string {
	s := fmt.Sprintf("%s:%d:%d: %s %s: %s", f.Document, f.Line, f.Column, f.Severity, f.Code, f.Message)
	if f.URL != "" {
		s += " (" + printable.Escape(f.URL) + ")"
	}
	return s
}

// The default caps of the findings listed, given in LintOptions' words.
const (
	lintDefaultMaxPerCode  = 1000
	lintDefaultMaxFindings = 10000
)

// The default caps of the sets the checks across documents keep, given in
// LintOptions' words.
const (
	lintDefaultMaxLocs      = 1 << 20 // 1,048,576 locations, 8 bytes of hash and 4 of document each
	lintDefaultMaxHreflangs = 100000  // alternate links kept for hreflang-return
	lintDefaultMaxRobots    = 16      // hosts whose robots.txt is fetched
)

// LintOptions are the settings of a lint call; the zero value, or nil,
// is the defaults. Each cap of 0 is its default, named beside it.
type LintOptions struct {
	// MaxPerCode caps the findings listed of one code, MaxFindings those
	// listed in all. What goes past a cap is counted: each code with
	// findings left out gets one summary finding, whose More says how
	// many. 0 is the default: 1,000 findings a code, 10,000 in all.
	MaxPerCode, MaxFindings int
	// MaxLocs caps the locations kept for duplicate-loc across the tree
	// and for hreflang-return (by default 1,048,576, 12 bytes each),
	// MaxHreflangs the alternate links kept for hreflang-return (by
	// default 100,000): past either, one lint-capped finding says which
	// check stopped.
	MaxLocs, MaxHreflangs int
	// MaxRobots caps the hosts whose robots.txt is fetched (by default
	// 16); the URLs of other hosts are not checked
	// against theirs, and one lint-capped finding says so.
	MaxRobots int
	// NoRobots: fetch no robots.txt. robots-disallowed,
	// sitemap-disallowed and not-in-robots are then not checked, and no
	// URL on another host is taken as cross-submitted.
	NoRobots bool
	// Now is the time lastmod-future and news-too-old are measured from;
	// the zero time is the start of the call.
	Now time.Time
	// EachURL, when not nil, makes the call keep no URL, as [S.Stream]
	// keeps none: each URL is handed to EachURL once its entry has been
	// checked, on the goroutine that ranges over the findings, between
	// two of them, and the getters hold no URL afterwards (the tree still
	// counts them). Memory then stays flat however many URLs pass, and
	// one call gives both the findings and the URLs: package report
	// draws its histogram of lastmod from them.
	EachURL func(URL)
	// CheckPages, when above 0, requests up to that many of the pages the
	// tree lists, once it is read, and reports what their answers say
	// (page-status, page-redirect, page-noindex, page-canonical-other,
	// lastmod-stale, hreflang-target-status). The pages are a sample that
	// is the same on every run: each sitemap keeps those of its pages whose
	// locations hash lowest, and the sitemaps, in the order of their URLs,
	// give one page each in turn. Only the pages on the host of their
	// sitemap are taken, none that robots.txt disallows, and a redirect is
	// followed only to a host of a sitemap of the tree. Each page is asked
	// with HEAD (GET when HEAD is refused with 405 or 501), and an HTML page
	// that answers 200 with a GET of at most 256 KiB of its head. The
	// requests go through the instance's fetching: its user agent, client,
	// guard ([S.SetBlockPrivate]), retries and limits per host
	// ([S.SetPoliteness]), at one request a second to a host when no rate
	// is set, slower when the host's robots.txt asks with a Crawl-delay;
	// the client's redirect policy is not used. They stop at a budget of 3
	// requests a page. A page that cannot be checked (the budget, the
	// guard, an error of the connection, a 429 or 503 left after the
	// retries) is a page-unchecked note, never a problem of the page.
	// At most 10,000 pages are checked.
	CheckPages int
}

// Lint reads the document at url and what it leads to, as [S.ParseContext]
// does with the same settings, and returns what is wrong with them as an
// iterator of findings. r is nil to fetch url; otherwise r is the document
// at url, read as [S.ParseReader] reads it and never fetched, and the
// checks of where a URL stands (loc-other-host, loc-other-scheme,
// loc-outside-path) and robots-disallowed are made only when url is an
// HTTP or HTTPS URL. Lint always reads tolerantly: [S.SetStrict] is
// ignored, and what strict mode would reject is reported as findings
// instead. Lint rejects nothing and never stops at the first problem.
//
// Each range over the iterator runs one call, as [S.Stream] does: the
// findings come while the call reads, each document's as it is read
// (several documents are read at once when [S.SetMultiThread] is on, and
// their findings then mix); those of the checks across documents
// (hreflang-return) and the summary of each code that went past a cap
// come last. Breaking out of the loop ends the call: the requests in
// flight are cancelled, and the loop returns once the goroutines of the
// call have ended. Ranging over the iterator again runs a second call.
// The call is the instance's latest: its getters hold the results of the
// reading, as after ParseContext, and, as there, the body of the loop must
// not start another call on s. Besides what ParseContext fetches, Lint
// fetches the robots.txt of each host of the URLs and sitemaps it checks,
// once, for at most o.MaxRobots hosts, unless o.NoRobots. o may be nil.
// With a store ([S.SetStore]) the call reads conditionally and puts its
// records as ParseContext does, and syncs a [Syncer] when it ends; an error
// of the store is one of [S.GetErrors], not a finding.
//
// Memory is bounded by the caps of o: the findings are handed on, not
// kept, those past the caps only counted, and the sets of the checks across documents (duplicate-loc across
// the tree, hreflang-return) keep a 64-bit hash of each location, exact
// below their caps; past one, one lint-capped finding says that its check
// stopped.
func (s *S) Lint(ctx context.Context, url string, r io.Reader, o *LintOptions) iter.Seq[Finding] {
	var opts LintOptions
	if o != nil {
		opts = *o
	}
	return func(yield func(Finding) bool) {
		c, err := s.begin(ctx, url)
		defer s.parsing.Unlock()
		if err != nil {
			for _, e := range s.GetErrors() {
				if !yield(Finding{Code: CodeConfig, Severity: CodeConfig.Severity(), Document: url, Message: e.Error()}) {
					return
				}
			}
			return
		}
		out := make(chan Finding, 64)
		var urls chan []item // the URLs handed on to EachURL, nil without it
		if opts.EachURL != nil {
			urls = make(chan []item, 16)
			c.emit = urls
			c.f.chargeServerOnly()
		}
		l := newLinter(opts, c, out)
		l.pages = newPageChecks(l, ctx, opts.CheckPages)
		go func() {
			defer close(out)
			if urls != nil {
				defer close(urls)
			}
			c.guard(func() { l.run(r) })
		}()
		// However the loop ends, the call ends with it, and its
		// goroutines have ended before the loop returns (see S.stream):
		// once halted, they block on neither channel, and close both.
		drain := func() {
			c.halt()
			for range out {
			}
			if urls != nil {
				for range urls {
				}
			}
		}
		defer drain()
		findings, batches := (<-chan Finding)(out), (<-chan []item)(urls)
	loop:
		for findings != nil || batches != nil {
			select {
			case f, ok := <-findings:
				switch {
				case !ok:
					findings = nil
				case c.stopped() || !yield(f):
					break loop
				}
			case batch, ok := <-batches:
				switch {
				case !ok:
					batches = nil
				case c.stopped():
					break loop
				default:
					l.handOn(batch)
				}
			}
		}
		drain()
		c.endStore()
		c.raise()
	}
}

// handOn hands the URLs of batch to EachURL, and puts the records of the
// store that come with them, as the loop of S.stream does: a record that
// cannot be put is an error of the call.
func (l *linter) handOn(batch []item) {
	for _, it := range batch {
		switch {
		case it.after != nil:
			if err := it.after(); err != nil {
				l.c.s.record(err)
			}
		case it.err == nil:
			l.opt.EachURL(it.u)
		}
	}
	clear(batch)
	batch = batch[:0]
	itemBatches.Put(&batch)
}

// run is the call of Lint, on a goroutine of its own: the one of
// ParseContext, tolerant, with l attached, then the checks across
// documents and the summaries of the caps.
func (l *linter) run(r io.Reader) {
	c := l.c
	c.cfg.strict = false
	c.attach(hooks{opened: l.opened, document: l.document})
	err := c.run(r) // the errors of the documents are findings of their own
	var verr *ValidationError
	if errors.As(err, &verr) && verr.URL == c.root {
		// The URL given was refused before it was read.
		l.add(Finding{Code: CodeLocInvalid, Document: c.root, URL: c.root, Message: verr.Err.Error()})
	}
	l.checkPages()
	l.finish()
	l.summarize()
}

// linter is the observer of one lint call. Its counts and its sets are
// shared by the documents of the call, read on several goroutines: mu
// guards them. What one document alone needs is in its lintDoc.
type linter struct {
	c   *call
	opt LintOptions
	now time.Time
	out chan<- Finding // to the loop of Lint

	mu        sync.Mutex
	listed    int                  // findings handed to the loop
	perCode   map[Code]int         // listed, by code
	omitted   map[omittedKey]int64 // left out, by code and severity
	seed      maphash.Seed
	locs      map[uint64]int32 // hash of a location's key → node of the first document that gave it
	locsFull  bool
	links     map[[2]uint64]lintLink // (page, alternate) → where the page gave it
	linkFull  bool
	docFound  map[int]Found       // how each document of the tree was found
	mods      map[uint64]indexMod // hash of a sitemap's key → the <lastmod> an index gives it
	robotsTxt robotsCache
	pages     *pageChecks // nil when no page is to be checked (lint_pages.go)
}

// indexMod is the <lastmod> an index gives a sitemap, kept for
// index-lastmod-behind, with where the index gives it.
type indexMod struct {
	t               time.Time
	span            int // a date without a time, which stands for its year, month or day: its length (4, 7, 10); 0 with a time
	node, line, col int32
	loc             string // the sitemap's <loc>, as written
}

// lintLink is an alternate link kept for hreflang-return.
type lintLink struct {
	node, line, col int32
	page, alt       string
}

// newLinter returns the linter of the call c, with the options o, which
// hands its findings to out.
func newLinter(o LintOptions, c *call, out chan<- Finding) *linter {
	orDefault := func(n *int, def int) {
		if *n <= 0 {
			*n = def
		}
	}
	orDefault(&o.MaxPerCode, lintDefaultMaxPerCode)
	orDefault(&o.MaxFindings, lintDefaultMaxFindings)
	orDefault(&o.MaxLocs, lintDefaultMaxLocs)
	orDefault(&o.MaxHreflangs, lintDefaultMaxHreflangs)
	orDefault(&o.MaxRobots, lintDefaultMaxRobots)
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	return &linter{c: c, opt: o, now: now, out: out, perCode: map[Code]int{}, omitted: map[omittedKey]int64{},
		seed: maphash.MakeSeed(), locs: map[uint64]int32{}, links: map[[2]uint64]lintLink{},
		docFound: map[int]Found{}, mods: map[uint64]indexMod{}}
}

// omittedKey is what the findings left out are counted by: a code, and
// the severity they had, which may be another than the code's own
// (duplicate-loc across documents is a note).
type omittedKey struct {
	code     Code
	severity Severity
}

// omit reports whether a finding of code, of the code's own severity, is
// past the caps, and counts it then: the caller need not make it.
func (l *linter) omit(code Code) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perCode[code] >= l.opt.MaxPerCode || l.listed >= l.opt.MaxFindings {
		l.omitted[omittedKey{code, code.Severity()}]++
		return true
	}
	return false
}

// add hands f to the loop of Lint, within the caps. A finding without a
// severity takes that of its code. Once the loop has ended, it hands on
// nothing.
func (l *linter) add(f Finding) {
	if f.Severity == "" {
		f.Severity = f.Code.Severity()
	}
	// A message may quote the document or the server: what a terminal
	// would act on in it is escaped here, once for every check.
	f.URL, f.Message = shorten(f.URL), printable.Escape(f.Message)
	l.mu.Lock()
	if l.perCode[f.Code] >= l.opt.MaxPerCode || l.listed >= l.opt.MaxFindings {
		l.omitted[omittedKey{f.Code, f.Severity}]++
		l.mu.Unlock()
		return
	}
	l.perCode[f.Code]++
	l.listed++
	l.mu.Unlock()
	l.send(f)
}

// send hands f to the loop of Lint, unless the loop has ended.
func (l *linter) send(f Finding) {
	select {
	case l.out <- f:
	case <-l.c.stop:
	}
}

// summarize hands on a summary finding for each code, and severity of
// its findings, that had some left out, in the order of the codes, the
// gravest first.
func (l *linter) summarize() {
	l.mu.Lock()
	keys := slices.SortedFunc(maps.Keys(l.omitted), func(a, b omittedKey) int {
		return cmp.Or(cmp.Compare(a.code, b.code), cmp.Compare(a.severity.rank(), b.severity.rank()))
	})
	out := make([]Finding, 0, len(keys))
	for _, k := range keys {
		n := l.omitted[k]
		out = append(out, Finding{Code: k.code, Severity: k.severity, Document: l.c.root,
			Message: fmt.Sprintf("%d more %s findings were left out (the caps are %d of a code, %d in all)", n, k.code, l.opt.MaxPerCode, l.opt.MaxFindings),
			More:    n})
	}
	l.mu.Unlock()
	for _, f := range out {
		l.send(f)
	}
}

// hash returns the hash of s, a location's key, with a prefix that keeps
// pages and sitemaps apart. With 64 bits and at most lintDefaultMaxLocs
// keys, the chance that two keys of one call share a hash is below
// n²/2⁶⁵, about 3·10⁻⁸: a false duplicate is negligible.
func (l *linter) hash(prefix byte, s string) uint64 {
	var h maphash.Hash
	h.SetSeed(l.seed)
	h.WriteByte(prefix)
	h.WriteString(s)
	return h.Sum64()
}

// seen records the location of hash h in the document at node, and
// returns the node of the document that gave it first, or -1 when none
// did (or the set is full).
func (l *linter) seen(h uint64, node int) int {
	l.mu.Lock()
	first, ok := l.locs[h]
	full := false
	if !ok {
		if len(l.locs) < l.opt.MaxLocs {
			l.locs[h] = int32(node)
		} else if !l.locsFull {
			l.locsFull, full = true, true
		}
	}
	l.mu.Unlock()
	if full {
		l.add(Finding{Code: CodeLintCapped, Document: l.docURL(node),
			Message: fmt.Sprintf("more than %d locations: duplicate-loc and hreflang-return are not checked further", l.opt.MaxLocs)})
	}
	if !ok {
		return -1
	}
	return int(first)
}

// duplicate reports a location the document, or another document of the
// tree, gave before.
func (ld *lintDoc) duplicate(raw, loc string, sitemap bool) {
	prefix := byte('p')
	if sitemap {
		prefix = 's'
	}
	node := ld.d.node
	h := ld.l.hash(prefix, urlnorm.Key(loc))
	first := ld.l.seen(h, node)
	if first >= 0 && first != node {
		// Another document gave it first. When this one gave it before
		// too, the duplicate is within this one, whatever the order the
		// documents are read in.
		if _, ok := ld.again[h]; ok {
			first = node
		} else if len(ld.again) < lintMaxAgain {
			if ld.again == nil {
				ld.again = make(map[uint64]struct{})
			}
			ld.again[h] = struct{}{}
		}
	}
	switch {
	case first < 0:
	case first == node:
		ld.entryFinding(CodeDuplicateLoc, raw, "the location is listed before in this document")
	default:
		ld.l.add(Finding{Code: CodeDuplicateLoc, Severity: SeverityInfo, Document: ld.url(), Line: ld.line, Column: ld.col,
			URL: raw, Message: "the location is listed in " + ld.l.docURL(first) + " too"})
	}
}

// lintMaxAgain caps the locations a document keeps of those another
// gave first: the most a sitemap may list. Past it, a duplicate within
// the document of such a location is told as one across documents.
const lintMaxAgain = 50000

// docURL is the URL the document at node was requested as.
func (l *linter) docURL(node int) string {
	if u, ok := l.c.s.docURL(node); ok {
		return u
	}
	return l.c.root
}

// finish makes the checks that need the whole tree: hreflang-return.
func (l *linter) finish() {
	l.mu.Lock()
	var out []lintLink
	for k, ln := range l.links {
		if _, read := l.locs[k[1]]; !read {
			continue // the alternate was not read: nothing to tell
		}
		if _, back := l.links[[2]uint64{k[1], k[0]}]; !back {
			out = append(out, ln)
		}
	}
	l.mu.Unlock()
	for _, ln := range out {
		l.add(Finding{Code: CodeHreflangReturn, Document: l.docURL(int(ln.node)), Line: int(ln.line), Column: int(ln.col),
			URL: ln.page, Message: fmt.Sprintf("the alternate %s does not link back to this page", ln.alt)})
	}
}

// indexLastmod keeps the <lastmod> t that the index of ld gives the
// sitemap loc (written raw), within the cap of MaxLocs: span is the length
// of a date without a time (4, 7, 10), 0 for one with a time.
func (l *linter) indexLastmod(ld *lintDoc, loc, raw string, t time.Time, span int) {
	h := l.hash('s', urlnorm.Key(loc))
	l.mu.Lock()
	if len(l.mods) < l.opt.MaxLocs {
		l.mods[h] = indexMod{t: t, span: span, node: int32(ld.d.node), line: int32(ld.line), col: int32(ld.col), loc: raw}
	}
	l.mu.Unlock()
}

// indexBehind reports, on the entry of the index that lists it, a sitemap
// whose entries are dated later than the <lastmod> the index gives it: a
// crawler that trusts the index does not read it again, and misses them.
// A date without a time in the index covers its whole year, month or day,
// in the site's zone (which ends up to twelve hours after UTC's).
func (l *linter) indexBehind(ld *lintDoc) {
	l.mu.Lock()
	m, ok := l.mods[l.hash('s', urlnorm.Key(ld.url()))]
	l.mu.Unlock()
	limit := dateEnd(m.t, m.span)
	if !ok || !ld.newest.After(limit) {
		return
	}
	if l.omit(CodeIndexLastmodBehind) {
		return
	}
	given := m.t.Format(time.RFC3339)
	if m.span != 0 {
		given = m.t.Format(time.DateOnly[:m.span])
	}
	l.add(Finding{Code: CodeIndexLastmodBehind, Document: l.docURL(int(m.node)), Line: int(m.line), Column: int(m.col), URL: m.loc,
		Message: fmt.Sprintf("the sitemap has entries dated %s, later than the <lastmod> %s the index gives it: a crawler that trusts the index skips them",
			ld.newest.Format(time.RFC3339), given)})
}

// dateEnd returns the end of the period a date without a time names: t
// its start, span the length it is written in (4 a year, 7 a month, 10 a
// day), the end taken as the site's, up to twelve hours after UTC's
// (UTC-12). A date with a time (span 0) ends when it is.
func dateEnd(t time.Time, span int) time.Time {
	if end, ok := periodEnd(t, span); ok {
		return end.Add(12 * time.Hour)
	}
	return t
}
