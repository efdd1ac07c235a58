package sitemap

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/urlnorm"
	"github.com/gositemap/sitemap/internal/xmlscan"
)

// This file is the part of lint that one document needs: what its
// request, its decoding, its scanner and its parse stage tell, and the
// checks of an entry. The extensions are checked in lint_ext.go. A rule
// strict mode has as well is checked by strict mode's function (rules.go
// lists them), whose failure broke lists; the bounds of the protocol are
// limits.go's.

// The least entries of a document that lastmod-uniform looks at, and the
// namespace of the sitemaps schema.
const (
	lintMinUniform = 100
	nsSitemaps     = "http://www.sitemaps.org/schemas/sitemap/0.9"
	nsXSI          = "http://www.w3.org/2001/XMLSchema-instance"
)

// lintDoc is the lint state of one document, read on one goroutine.
type lintDoc struct {
	l  *linter
	d  *doc
	sc *xmlscan.Scanner

	// The lines and the columns of the first line that decode dropped
	// before the scanner saw the document (white space before its root).
	skipLines, skipCols int

	line, col int // where the entry being read starts
	endLine   int // where the scanner ended (see unwatch)
	endCol    int
	entries   int64 // the entries read
	news      int64 // the entries with a <news:news>

	// lastmod-uniform: the date of the first entry, and whether every
	// entry so far had it.
	mod0    string
	uniform bool

	// element-order: the place of the last element of the sitemaps
	// namespace in the entry, and whether an element of another one came;
	// element-repeated: the places of those that came (a bit each).
	lastChild int
	sawOther  bool
	children  uint8

	// duplicate-loc: the locations of this document that another one gave
	// first, so that a second one here is told as a duplicate within it
	// (at most lintMaxAgain, dropped with the document).
	again map[uint64]struct{}

	schema bool // the root is in the sitemaps namespace

	// index-lastmod-behind: the latest date of an entry.
	newest time.Time
}

// document is lint's hook on a document of the call: the lint state of d,
// and the hooks through which the stages tell it what they read.
func (l *linter) document(_ child, _ int, d *doc) docHooks {
	ld := &lintDoc{l: l, d: d, uniform: true}
	return docHooks{
		body:        ld.prolog,
		numberLines: true,
		text:        ld.checkUTF8,
		entry:       ld.entry,
		ended:       ld.end,
		xml: xmlHooks{scanner: ld.watch, root: ld.root, rootChild: ld.rootChild,
			entryStart: ld.entryStart, child: ld.child},
	}
}

// url is the URL the document was requested as.
func (ld *lintDoc) url() string {
	if ld.d.src.doc != nil {
		return ld.d.src.doc.url
	}
	return ld.d.baseStr
}

// report adds a finding about the document, at line and col.
func (ld *lintDoc) report(code Code, line, col int, loc, msg string) {
	if ld.l.omit(code) {
		return
	}
	ld.l.add(Finding{Code: code, Document: ld.url(), Line: line, Column: col, URL: loc, Message: msg})
}

// entryFinding adds a finding about the entry being read.
func (ld *lintDoc) entryFinding(code Code, loc, format string, args ...any) {
	if ld.l.omit(code) {
		return // not formatted: a document of a million findings makes no garbage of them
	}
	ld.report(code, ld.line, ld.col, loc, fmt.Sprintf(format, args...))
}

// broke lists err, the failure of a rule strict mode has too (nil: none),
// about the entry being read, whose location is loc: a finding of the
// rule's code with strict mode's message, after subject, the URL the
// failure is about, when there is one.
func (ld *lintDoc) broke(loc, subject string, err error) {
	if err == nil {
		return
	}
	code := ruleOf(err)
	if ld.l.omit(code) {
		return
	}
	msg := lintMessage(err)
	if subject != "" {
		msg = strconv.Quote(subject) + ": " + msg
	}
	ld.report(code, ld.line, ld.col, loc, msg)
}

// opened is lint's hook on what the request of the document ch yielded.
func (l *linter) opened(ch child, src source, err error) {
	l.mu.Lock()
	l.docFound[ch.node] = ch.found
	l.mu.Unlock()
	add := func(code Code, format string, args ...any) {
		l.add(Finding{Code: code, Document: ch.loc, Message: fmt.Sprintf(format, args...)})
	}
	var es *statusError
	switch {
	case errors.As(err, &es):
		add(CodeHTTPStatus, "the server answered %s, not 200 OK", es.v.status)
	case errors.Is(err, ErrMaxResponseSize):
		add(CodeTooLarge, "%v", causeOf(err))
	case err != nil:
		add(CodeFetchFailed, "%v", causeOf(err))
	case src.resp.final != "" && src.resp.final != ch.loc:
		add(CodeRedirected, "redirected to %s; list that URL instead", src.resp.final)
	}
}

// prolog looks at what comes before the root element of a document that
// is to be read as XML, before decode drops the white space in front of
// it: an XML declaration after white space, and the encoding declared. A
// robots.txt has none.
func (ld *lintDoc) prolog(r *bufio.Reader) error {
	if ld.d.format == formatRobots {
		return nil
	}
	head, _ := r.Peek(peekSize)
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	ws := head[:len(head)-len(trimmed)]
	ld.skipLines = bytes.Count(ws, []byte{'\n'})
	ld.skipCols = len(ws) - (bytes.LastIndexByte(ws, '\n') + 1)
	if len(ws) > 0 && isDeclaration(trimmed) {
		ld.report(CodeXMLDeclaration, 1, 1, "", fmt.Sprintf("%d bytes of white space before the XML declaration, which must come first", len(ws)))
	}
	label := declaredEncoding(trimmed)
	if label != "" && !strings.EqualFold(label, "utf-8") && !strings.EqualFold(label, "utf8") {
		ld.report(CodeEncoding, 1, 1, "", fmt.Sprintf("the document declares the encoding %q; the protocol asks for UTF-8", label))
	}
	return nil
}

// checkUTF8 returns tr, the reader of the scanner, checking on its way
// that a document read as UTF-8 is UTF-8. transcoded tells that tr is a
// transcoder, whose output is UTF-8 whatever the input was.
func (ld *lintDoc) checkUTF8(tr io.Reader, transcoded bool) io.Reader {
	if transcoded {
		return tr
	}
	return &utf8Checker{r: tr, ld: ld}
}

// utf8Checker reports the first bytes that are not UTF-8 in what it reads,
// without copying it: a character cut by the end of a read is completed
// in pend from the next.
type utf8Checker struct {
	r     io.Reader
	ld    *lintDoc
	pend  [utf8.UTFMax]byte
	npend int
	off   int64 // the offset in the document of the next read's first byte
	done  bool
}

func (u *utf8Checker) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	if !u.done && (n > 0 || err != nil) {
		u.check(p[:n], err != nil)
	}
	return n, err
}

// check checks b, the bytes of one read; last tells that none follow.
func (u *utf8Checker) check(b []byte, last bool) {
	i := 0
	for ; u.npend > 0 && i < len(b); i++ {
		u.pend[u.npend] = b[i]
		u.npend++
		if utf8.FullRune(u.pend[:u.npend]) {
			if r, size := utf8.DecodeRune(u.pend[:u.npend]); r == utf8.RuneError && size == 1 {
				u.bad(u.off - int64(u.npend-i-1))
				return
			}
			u.npend = 0
		}
	}
	rest, end := b[i:], len(b)-i
	if !last {
		// Up to three bytes at the end may begin a character that the
		// next read ends.
		for k := 1; k <= utf8.UTFMax-1 && k <= len(rest); k++ {
			if utf8.RuneStart(rest[len(rest)-k]) {
				if !utf8.FullRune(rest[len(rest)-k:]) {
					end = len(rest) - k
				}
				break
			}
		}
	}
	if !utf8.Valid(rest[:end]) || last && u.npend > 0 {
		u.bad(u.off + int64(i+invalidAt(rest[:end])))
		return
	}
	u.npend += copy(u.pend[u.npend:], rest[end:])
	u.off += int64(len(b))
}

// bad reports the bytes at offset at.
func (u *utf8Checker) bad(at int64) {
	u.done = true
	u.ld.report(CodeEncoding, 0, 0, "", fmt.Sprintf("the bytes at offset %d are not UTF-8, which the document is read as", at))
}

// invalidAt is the offset of the first byte of b that begins no UTF-8
// character.
func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// watch attaches the lint state to the scanner of the document; the
// parse stage calls what it returns once it is done with the scanner.
func (ld *lintDoc) watch(sc *xmlscan.Scanner) func() {
	ld.sc = sc
	sc.SetObserver(ld)
	return ld.unwatch
}

// unwatch lets go of the scanner, which the parse stage releases, keeping
// where it ended.
func (ld *lintDoc) unwatch() {
	ld.endLine, ld.endCol = ld.pos()
	ld.sc = nil
}

// pos is where the scanner is, in the lines of the document; once the
// scanner is let go, where it ended.
func (ld *lintDoc) pos() (line, col int) {
	if ld.sc == nil {
		return ld.endLine, ld.endCol
	}
	return ld.adjust(ld.sc.Pos())
}

// adjust adds to a position of the scanner the white space it did not see.
func (ld *lintDoc) adjust(line, col int) (int, int) {
	if line == 1 {
		col += ld.skipCols
	}
	return line + ld.skipLines, col
}

// Note is the scanner's report of what it read past or skipped.
func (ld *lintDoc) Note(kind xmlscan.NoteKind, msg string, line, col int) {
	line, col = ld.adjust(line, col)
	switch kind {
	case xmlscan.NoteSyntax:
		ld.report(CodeXMLSyntax, line, col, "", msg+" (read past)")
	case xmlscan.NoteDirective:
		ld.report(CodeDoctype, line, col, "", msg+"; a sitemap needs none, and some readers refuse one")
	case xmlscan.NoteDecl:
		ld.report(CodeXMLDeclaration, line, col, "", msg+": something stands before it")
	}
}

// root checks the root element of an XML document.
func (ld *lintDoc) root(f docFormat, space []byte) {
	if f != formatURLSet && f != formatIndex {
		return
	}
	line, col := ld.pos()
	if ld.schema = string(space) == nsSitemaps; ld.schema {
		ld.attributes(rootName(f))
	}
	switch s := string(space); {
	case s == nsSitemaps:
	case s == "":
		ld.report(CodeNamespace, line, col, "", "the root element has no namespace; it needs xmlns=\""+nsSitemaps+"\"")
	default:
		ld.report(CodeNamespace, line, col, "", fmt.Sprintf("the root element is in the namespace %q, not in %q", s, nsSitemaps))
	}
}

// entryStart is told that an entry starts.
func (ld *lintDoc) entryStart() {
	ld.line, ld.col = ld.pos()
	ld.lastChild, ld.sawOther, ld.children = -1, false, 0
	ld.attributes(entryName(ld.d.format))
}

// The elements of the sitemaps namespace in an entry, in their order.
var (
	urlChildren     = []string{"loc", "lastmod", "changefreq", "priority"}
	sitemapChildren = []string{"loc", "lastmod"}
)

// child is told of an element within an entry of a urlset or an index,
// depth levels below the entry, in the root's namespace (own) or not.
func (ld *lintDoc) child(local []byte, depth int, own bool, f docFormat) {
	if depth != 1 {
		return
	}
	if !own {
		ld.sawOther = true
		return
	}
	names := urlChildren
	if f == formatIndex {
		names = sitemapChildren
	}
	i := indexOf(names, string(local))
	line, col := ld.pos()
	if i >= 0 {
		ld.attributes(names[i])
	}
	switch {
	case i < 0:
		ld.report(CodeElementUnknown, line, col, "", fmt.Sprintf("<%s> is no element of a <%s> in the sitemaps schema", local, entryName(f)))
		return
	case ld.children&(1<<i) != 0:
		ld.report(CodeElementRepeated, line, col, "", fmt.Sprintf("<%s> is repeated; the first is the one read", local))
		return
	case i < ld.lastChild:
		ld.report(CodeElementOrder, line, col, "", fmt.Sprintf("<%s> comes after <%s>; the schema puts %s in that order", local, names[ld.lastChild], strings.Join(names, ", ")))
	case ld.sawOther:
		ld.report(CodeElementOrder, line, col, "", fmt.Sprintf("<%s> comes after an element of an extension; the schema puts those last", local))
	}
	ld.lastChild, ld.children = max(ld.lastChild, i), ld.children|1<<i
}

// rootChild is told of an element right below the root that is no entry.
func (ld *lintDoc) rootChild(local []byte, own bool, f docFormat) {
	if !own || f != formatURLSet && f != formatIndex {
		return
	}
	line, col := ld.pos()
	ld.report(CodeElementUnknown, line, col, "", fmt.Sprintf("<%s> is no element of a <%s> in the sitemaps schema", local, rootName(f)))
}

func indexOf(names []string, s string) int {
	for i, n := range names {
		if n == s {
			return i
		}
	}
	return -1
}

func entryName(f docFormat) string {
	if f == formatIndex {
		return "sitemap"
	}
	return "url"
}

func rootName(f docFormat) string {
	if f == formatIndex {
		return "sitemapindex"
	}
	return "urlset"
}

// end is told how the document ended, and makes the checks of the
// document as a whole.
func (ld *lintDoc) end(st Status, err error) {
	if err != nil {
		ld.docError(err)
	}
	if ld.l.pages != nil && st != StatusFailed {
		ld.l.pages.sample(ld) // its hosts are the tree's, whether it lists pages or not
	}
	if st == StatusFailed {
		return
	}
	f := ld.d.format
	if ld.d.decoded > maxDocBytes {
		ld.report(CodeTooLarge, 0, 0, "", fmt.Sprintf("%d bytes decompressed, more than the %d the protocol allows", ld.d.decoded, maxDocBytes))
	}
	if f == formatRobots || f == formatUnknown {
		return
	}
	switch {
	case ld.entries == 0 && (f == formatURLSet || f == formatIndex):
		ld.report(CodeEmpty, 0, 0, "", "the document has no entry")
	case ld.entries == 0:
		// A feed without an item may be one of a quiet day: a warning.
		ld.l.add(Finding{Code: CodeEmpty, Severity: SeverityWarning, Document: ld.url(), Message: "the document has no entry"})
	case ld.entries > maxEntries && f == formatIndex:
		ld.report(CodeTooManySitemaps, 0, 0, "", fmt.Sprintf("%d sitemaps, more than the %d an index may list", ld.entries, maxEntries))
	case ld.entries > maxEntries:
		ld.report(CodeTooManyURLs, 0, 0, "", fmt.Sprintf("%d entries, more than the %d a sitemap may hold", ld.entries, maxEntries))
	}
	if ld.uniform && ld.entries >= lintMinUniform && ld.mod0 != "" {
		ld.report(CodeLastmodUniform, 0, 0, "", fmt.Sprintf("all %d entries have the date %s: it looks like the time the sitemap was made, not of the pages' changes", ld.entries, ld.mod0))
	}
	if ld.news > lintMaxNews {
		ld.report(CodeNewsTooMany, 0, 0, "", fmt.Sprintf("%d news entries, more than the %d Google reads of one sitemap", ld.news, lintMaxNews))
	}
	ld.l.mu.Lock()
	found := ld.l.docFound[ld.d.node]
	ld.l.mu.Unlock()
	if f == formatIndex && found == FoundIndex {
		ld.report(CodeNestedIndex, 0, 0, "", "a sitemap index listed by another index; indexes do not nest")
	}
	if found == FoundIndex && !ld.newest.IsZero() {
		ld.l.indexBehind(ld)
	}
	ld.l.sitemapRobots(ld, found)
}

// docError makes a finding of the error that ended a document, or cut it
// short.
func (ld *lintDoc) docError(err error) {
	var ns *notSitemapError
	var se *xml.SyntaxError
	var ne *NetworkError
	var ee *encodingError
	switch {
	case errors.Is(err, errGzip):
		ld.report(CodeGzipCorrupt, 0, 0, "", causeOf(err).Error())
	case errors.As(err, &ns) || errors.Is(err, errNoURLLines):
		ld.report(CodeNotSitemap, 0, 0, "", causeOf(err).Error())
	case errors.Is(err, errEmpty) || errors.Is(err, errNoRoot):
		ld.report(CodeNotXML, 0, 0, "", causeOf(err).Error())
	case errors.As(err, &ee):
		ld.report(CodeNotXML, 0, 0, "", causeOf(err).Error()+"; serve it in UTF-8")
	case errors.Is(err, ErrMaxResponseSize):
		ld.report(CodeTooLarge, 0, 0, "", causeOf(err).Error())
	case errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF):
		line, col := ld.pos()
		if se != nil && se.Line > 0 {
			line, col = ld.adjust(se.Line, 0)
		}
		ld.report(CodeXMLSyntax, line, col, "", causeOf(err).Error())
	case errors.As(err, &ne):
		ld.report(CodeFetchFailed, 0, 0, "", ne.Err.Error())
	case errors.Is(err, ld.d.c.ctx.Err()):
	default:
		ld.report(CodeNotXML, 0, 0, "", err.Error())
	}
}

// entry checks an entry of the document before it is translated. It reads
// the entry as strict mode would, and reports rather than rejects.
func (ld *lintDoc) entry(e *rawEntry) {
	d := ld.d
	if d.format == formatRobots || d.format == formatText {
		ld.line, ld.col = e.line, e.col // read by line, with no scanner
	}
	if d.format == formatRobots {
		// A Sitemap: value the call refuses, and does not request, is
		// listed as the call reads it (tolerant).
		if raw := string(e.loc.text()); raw != "" {
			ld.robotsValue(raw)
		}
		return
	}
	ld.entries++
	ld.lastmodUniform(e)
	raw := string(e.loc.text())
	if raw == "" {
		if !e.feed {
			ld.broke("", "", errNoLoc)
		}
		return
	}
	loc, ok := ld.checkLoc(raw, e.loc.cut)
	if !ok {
		return
	}
	page := !e.sitemap
	schema := d.format == formatURLSet || d.format == formatIndex
	if schema {
		ld.locTooShort(raw)
	}
	ld.checkSite(raw, loc, page && d.format == formatURLSet)
	ld.duplicate(raw, loc, e.sitemap)
	if t, ok := ld.checkDate(&e.lastmod, e.dateName, e.dateRFC822, raw); ok {
		if schema {
			ld.lastmodNotXSD(e.lastmod.text(), raw)
		}
		if t.After(ld.newest) && !t.After(ld.l.now) {
			ld.newest = t // a date in the future is lastmod-future's, not a change the index missed
		}
		if e.sitemap && d.format == formatIndex {
			span := len(e.lastmod.text())
			if e.dateRFC822 || span != 4 && span != 7 && span != 10 {
				span = 0
			}
			ld.l.indexLastmod(ld, loc, raw, t, span)
		}
	}
	if d.format == formatURLSet {
		ld.checkValues(e, raw)
		ld.extensions(e, raw, loc)
	}
	if page {
		ld.l.robotsCheck(ld, raw, loc)
		if ld.l.pages != nil {
			ld.l.pages.offer(ld, e, raw, loc)
		}
	}
}

// lastmodUniform follows whether every entry has the date of the first.
func (ld *lintDoc) lastmodUniform(e *rawEntry) {
	if !ld.uniform {
		return
	}
	m := e.lastmod.text()
	switch {
	case ld.entries == 1:
		ld.mod0 = string(m)
		ld.uniform = len(m) > 0
	case string(m) != ld.mod0:
		ld.uniform = false
	}
}

// checkLoc checks a location as strict mode does (translate.go's
// checkLoc), and returns it as tolerant mode reads it; ok is false when
// tolerant mode rejects it too, whose failure is listed then, should
// strict mode accept it.
func (ld *lintDoc) checkLoc(raw string, cut bool) (string, bool) {
	d := ld.d
	_, fail := urlnorm.Loc(raw, d.base, true)
	loc, err := urlnorm.Loc(raw, d.base, false)
	switch {
	case cut:
		fail = urlnorm.ErrTooLong
	case fail == nil || errors.Is(err, urlnorm.ErrTooLong):
		if err != nil {
			fail = err
		}
	}
	if fail != nil {
		fail = checkLoc(fail)
		if err == nil && ruleOf(fail) == CodeLocInvalid {
			fail = fmt.Errorf("%w (read as %s)", fail, loc)
		}
		ld.broke(raw, "", fail)
	}
	return loc, err == nil
}

// checkSite checks that loc is on the protocol and the host of the
// sitemap, and a page below its directory, unless the robots.txt of the
// host of loc lists the sitemap (cross-submission). It checks nothing for
// a document whose URL is no HTTP(S) URL, such as a file's.
func (ld *lintDoc) checkSite(raw, loc string, page bool) {
	base := ld.d.base
	if base == nil || base.Scheme != "http" && base.Scheme != "https" {
		return
	}
	err := checkSameSite(loc, base)
	if err == nil {
		if page && !belowDir(loc, base) && !ld.l.crossSubmitted(loc, ld) {
			ld.entryFinding(CodeLocOutsidePath, raw, "the location is not below %s, the directory of the sitemap", dirOf(base))
		}
		return
	}
	if ruleOf(err) == CodeLocInvalid || ld.l.crossSubmitted(loc, ld) {
		return
	}
	ld.broke(raw, "", err)
}

// dirOf is the URL of the directory of base.
func dirOf(base *url.URL) string {
	u := *base
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	p := u.EscapedPath()
	u.RawPath = ""
	u.Path, _ = url.PathUnescape(p[:strings.LastIndexByte(p, '/')+1])
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// belowDir reports whether loc, on the site of base, is below its
// directory.
func belowDir(loc string, base *url.URL) bool {
	u, err := url.Parse(loc)
	if err != nil {
		return true
	}
	bp := base.EscapedPath()
	dir := bp[:strings.LastIndexByte(bp, '/')+1]
	if dir == "" || dir == "/" {
		return true
	}
	return strings.HasPrefix(u.EscapedPath(), dir)
}

// checkDate checks a date of the entry of loc, and returns it; ok is
// false when there is none, or it cannot be read.
func (ld *lintDoc) checkDate(v *value, name string, rfc822 bool, loc string) (t time.Time, ok bool) {
	raw := v.text()
	if len(raw) == 0 {
		return t, false
	}
	t, err := checkDate(name, raw, rfc822)
	switch {
	case err != nil:
		ld.broke(loc, "", err)
		return t, false
	case t.After(ld.l.now.Add(24 * time.Hour)):
		ld.entryFinding(CodeLastmodFuture, loc, "<%s> %s is in the future", name, raw)
	}
	return t, true
}

// checkValues checks the <changefreq> and the <priority> of a <url>.
func (ld *lintDoc) checkValues(e *rawEntry, loc string) {
	if raw := e.changefreq.text(); len(raw) > 0 {
		_, _, err := checkChangefreq(raw, true)
		ld.broke(loc, "", err)
	}
	if e.priority.set {
		_, _, err := checkPriority(e.priority.text(), true)
		ld.broke(loc, "", err)
	}
}

// causeOf is what err wraps, or err when it wraps nothing.
func causeOf(err error) error {
	if c := errors.Unwrap(err); c != nil {
		return c
	}
	return err
}
