package sitemap

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/printable"
)

// This file is lint: an observer of the pipeline of a call. The fetch,
// decode, scanner, parse and translate stages tell it what they see while
// the call runs (through c.lint and d.lint, nil when lint is off, so that a
// call without it pays a nil check at each hook); it keeps the findings,
// capped, and the compact sets of the checks across documents. The checks
// of one entry are in lint_checks.go, those of the extensions in
// lint_ext.go, robots.txt in lint_robots.go.

// Finding is one problem that lint found.
type Finding struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	// Document is the URL the document was requested as (or given as).
	Document string `json:"document"`
	// Line and Column are where the scanner of the XML document was: the
	// line from 1, and the byte of the line from 1, counted in the
	// document as the scanner reads it, decompressed, after a byte order
	// mark and, for a document in another encoding than UTF-8, in the
	// UTF-8 it was transcoded to. For a finding about an entry it is the
	// end of the entry's start tag. Both are 0 for a finding about a
	// document as a whole, and for the formats that are read by line
	// (text sitemaps, robots.txt).
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

// The default caps of the findings and of the sets of the checks across
// documents.
const (
	DefaultLintMaxPerCode   = 1000
	DefaultLintMaxFindings  = 10000
	DefaultLintMaxLocs      = 1 << 20 // 1,048,576 locations, 8 bytes of hash and 4 of document each
	DefaultLintMaxHreflangs = 100000  // alternate links kept for hreflang-return
	DefaultLintMaxRobots    = 16      // hosts whose robots.txt is fetched
)

// LintOptions are the settings of a lint call; the zero value, or nil,
// is the defaults.
type LintOptions struct {
	// MaxPerCode caps the findings listed of one code, MaxFindings those
	// listed in all. What goes past a cap is counted: each code with
	// findings left out gets one summary finding, whose More says how
	// many. 0 is the default (DefaultLintMaxPerCode, DefaultLintMaxFindings).
	MaxPerCode, MaxFindings int
	// NoRobots: fetch no robots.txt. robots-disallowed is then not
	// checked, and no URL on another host is taken as cross-submitted.
	NoRobots bool
	// Now is the time lastmod-future and news-too-old are measured from;
	// the zero time is the start of the call.
	Now time.Time
}

// Lint reads the document at url and what it leads to, as [S.ParseContext]
// does with the same settings, and returns what is wrong with them as an
// iterator of findings. Lint always reads tolerantly: [S.SetStrict] is
// ignored, and what strict mode would reject is reported as findings
// instead. Lint rejects nothing and never stops at the first problem.
//
// The findings come once the call has ended, in the order of the
// documents in the tree ([S.GetDocuments]), then of lines. The call is the
// instance's latest: its getters hold the results of the reading, as
// after ParseContext. Besides what ParseContext fetches, Lint fetches the
// robots.txt of each host of the URLs it checks, once, for at most
// DefaultLintMaxRobots hosts, unless o.NoRobots. o may be nil.
//
// Memory is bounded by the caps of o: findings past them are counted, not
// kept, and the sets of the checks across documents (duplicate-loc across
// the tree, hreflang-return) keep a 64-bit hash of each location, exact
// below their caps; past one, one lint-capped finding says that its check
// stopped.
func (s *S) Lint(ctx context.Context, url string, o *LintOptions) iter.Seq[Finding] {
	return s.lintSeq(ctx, url, nil, o)
}

// LintReader is [S.Lint] for a document the caller has at hand, located at
// url: r is read as [S.ParseReader] reads it, and never fetched. The
// checks of where a URL stands (loc-other-host, loc-other-scheme,
// loc-outside-path) and robots-disallowed are made only when url is an
// HTTP or HTTPS URL.
func (s *S) LintReader(ctx context.Context, url string, r io.Reader, o *LintOptions) iter.Seq[Finding] {
	if r == nil {
		r = nilReader{}
	}
	return s.lintSeq(ctx, url, r, o)
}

func (s *S) lintSeq(ctx context.Context, url string, body io.Reader, o *LintOptions) iter.Seq[Finding] {
	var opts LintOptions
	if o != nil {
		opts = *o
	}
	return func(yield func(Finding) bool) {
		l := newLinter(opts)
		s.lintCall(ctx, url, body, l)
		for _, f := range l.results() {
			if !yield(f) {
				return
			}
		}
	}
}

// lintCall is the call of Lint: the one of ParseContext, tolerant, with l
// attached.
func (s *S) lintCall(ctx context.Context, url string, body io.Reader, l *linter) {
	c, err := s.begin(ctx, url)
	defer s.parsing.Unlock()
	if err != nil {
		for _, e := range s.GetErrors() {
			l.add(-1, Finding{Code: CodeConfig, Document: url, Message: e.Error()})
		}
		return
	}
	c.cfg.strict = false
	c.lint, l.c = l, c
	if l.now.IsZero() {
		l.now = time.Now()
	}
	err = c.run(body) // the errors of the documents are findings of their own
	var verr *ValidationError
	switch {
	case errors.As(err, &verr) && errors.Is(err, errNilReader):
		l.add(0, Finding{Code: CodeFetchFailed, Document: url, Message: verr.Err.Error()})
	case errors.As(err, &verr) && verr.URL == url:
		// The URL given was refused before it was read.
		l.add(0, Finding{Code: CodeLocInvalid, Document: url, URL: url, Message: verr.Err.Error()})
	}
	l.finish()
	c.raise()
}

// linter is the observer of one lint call. Its findings and its sets are
// shared by the documents of the call, read on several goroutines: mu
// guards them. What one document alone needs is in its lintDoc.
type linter struct {
	c   *call
	opt LintOptions
	now time.Time

	mu        sync.Mutex
	findings  []lintFinding
	perCode   map[Code]int   // listed, by code
	omitted   map[Code]int64 // left out, by code
	seed      maphash.Seed
	locs      map[uint64]int32 // hash of a location's key → node of the first document that gave it
	locsFull  bool
	links     map[[2]uint64]lintLink // (page, alternate) → where the page gave it
	linkFull  bool
	docFound  map[int]Found // how each document of the tree was found
	robotsTxt robotsCache
}

// The caps of the sets, variables for the tests.
var (
	lintMaxLocs     = DefaultLintMaxLocs
	lintMaxHreflang = DefaultLintMaxHreflangs
)

// lintFinding is a finding and the place of its document in the tree, by
// which the findings are sorted.
type lintFinding struct {
	node int
	f    Finding
}

// lintLink is an alternate link kept for hreflang-return.
type lintLink struct {
	node, line, col int32
	page, alt       string
}

func newLinter(o LintOptions) *linter {
	if o.MaxPerCode <= 0 {
		o.MaxPerCode = DefaultLintMaxPerCode
	}
	if o.MaxFindings <= 0 {
		o.MaxFindings = DefaultLintMaxFindings
	}
	return &linter{opt: o, now: o.Now, perCode: map[Code]int{}, omitted: map[Code]int64{},
		seed: maphash.MakeSeed(), locs: map[uint64]int32{}, links: map[[2]uint64]lintLink{},
		docFound: map[int]Found{}}
}

// omit reports whether a finding of code is past the caps, and counts it
// then: the caller need not make it.
func (l *linter) omit(code Code) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perCode[code] >= l.opt.MaxPerCode || len(l.findings) >= l.opt.MaxFindings {
		l.omitted[code]++
		return true
	}
	return false
}

// add keeps f, a finding of the document at node, within the caps. A
// finding without a severity takes that of its code.
func (l *linter) add(node int, f Finding) {
	if f.Severity == "" {
		f.Severity = f.Code.Severity()
	}
	// A message may quote the document or the server: what a terminal
	// would act on in it is escaped here, once for every check.
	f.URL, f.Message = shorten(f.URL), printable.Escape(f.Message)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perCode[f.Code] >= l.opt.MaxPerCode || len(l.findings) >= l.opt.MaxFindings {
		l.omitted[f.Code]++
		return
	}
	l.perCode[f.Code]++
	l.findings = append(l.findings, lintFinding{node, f})
}

// results returns the findings, sorted, with a summary finding for each
// code that had some left out.
func (l *linter) results() []Finding {
	l.mu.Lock()
	defer l.mu.Unlock()
	slices.SortStableFunc(l.findings, func(a, b lintFinding) int {
		return cmp.Or(cmp.Compare(a.node, b.node), cmp.Compare(a.f.Line, b.f.Line), cmp.Compare(a.f.Column, b.f.Column))
	})
	out := make([]Finding, 0, len(l.findings)+len(l.omitted))
	for _, lf := range l.findings {
		out = append(out, lf.f)
	}
	codes := make([]Code, 0, len(l.omitted))
	for code := range l.omitted {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	for _, code := range codes {
		n := l.omitted[code]
		out = append(out, Finding{Code: code, Severity: code.Severity(), Document: l.c.root,
			Message: fmt.Sprintf("%d more %s findings were left out (the caps are %d of a code, %d in all)", n, code, l.opt.MaxPerCode, l.opt.MaxFindings),
			More:    n})
	}
	return out
}

// hash returns the hash of s, a location's key, with a prefix that keeps
// pages and sitemaps apart. With 64 bits and at most DefaultLintMaxLocs
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
		if len(l.locs) < lintMaxLocs {
			l.locs[h] = int32(node)
		} else if !l.locsFull {
			l.locsFull, full = true, true
		}
	}
	l.mu.Unlock()
	if full {
		l.add(node, Finding{Code: CodeLintCapped, Document: l.docURL(node),
			Message: fmt.Sprintf("more than %d locations: duplicate-loc and hreflang-return are not checked further", lintMaxLocs)})
	}
	if !ok {
		return -1
	}
	return int(first)
}

// docURL is the URL the document at node was requested as.
func (l *linter) docURL(node int) string {
	if node < 0 {
		return l.c.root
	}
	l.c.s.mu.Lock()
	defer l.c.s.mu.Unlock()
	if d := l.c.s.docs.at(node); d != nil {
		return d.URL
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
		l.add(int(ln.node), Finding{Code: CodeHreflangReturn, Document: l.docURL(int(ln.node)), Line: int(ln.line), Column: int(ln.col),
			URL: ln.page, Message: fmt.Sprintf("the alternate %s does not link back to this page", ln.alt)})
	}
}
