package sitemap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/gositemap/sitemap/internal/dates"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is the translate stage: it checks the raw entries a parse stage
// hands on, in tolerant or strict mode, and turns them into the URLs,
// sitemaps and validation errors of one document. It knows the rules of
// the protocol for each value, and takes the memory of the values from the
// document's buffer (docbuf.go); it does not know which format the entries
// came from, nor how the URLs are kept or handed on. The checks of the rules
// of a value (checkLoc, checkDate, checkChangefreq, checkPriority) are
// lint's as well: each failure is a *violation of its Code (rules.go).

// errNoLoc is the cause of the *ValidationError of an entry without a
// location: the failure of loc-missing, made once, as a document of a
// million entries without one makes it a million times.
var errNoLoc error = &violation{CodeLocMissing, errors.New("<loc> of an entry is empty or missing")}

// errForbiddenReference is the cause of the *ValidationError of an entry
// that, in tolerant mode, holds a character reference to a code point XML
// forbids. The entry is skipped; strict mode rejects the document.
var errForbiddenReference = errors.New("entry holds a character reference to a code point that XML forbids (shown as U+FFFD)")

// invalid records a *ValidationError, within the limit of the call.
func (d *doc) invalid(u string, err error) {
	if !d.c.valErrs.take() {
		d.flush()
		d.c.limitValidationErrors()
		return
	}
	d.nValErrs++
	d.errs = append(d.errs, &ValidationError{URL: shorten(u), Err: err})
}

// shorten cuts a URL that a hostile document made huge to a length an error
// can name: its first 2,048 bytes and an ellipsis.
func shorten(s string) string {
	if len(s) <= 2*maxURLLength {
		return s
	}
	s = s[:maxURLLength]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

func (d *doc) entry(e *rawEntry) bool {
	if h := d.hooks.entry; h != nil {
		h(e)
	}
	if e.forbidden {
		u := d.baseStr
		if raw := e.loc.text(); len(raw) > 0 {
			u = string(raw)
		}
		d.invalid(u, broke(CodeXMLSyntax, errForbiddenReference))
		return true
	}
	if e.sitemap {
		d.sitemapEntry(e)
		return true
	}
	return d.pageEntry(e)
}

// date parses the date of an entry: nil when there is none or it is empty,
// nil and reported when it cannot be parsed (ok is false then).
func (d *doc) date(v *value, name string, rfc822 bool, owner string) (t *LastModTime, ok bool) {
	raw := textOf(v)
	if len(raw) == 0 {
		return nil, true
	}
	if p := d.datesSeen.get(raw, rfc822); p != nil {
		return p, true
	}
	tm, err := checkDate(name, raw, rfc822)
	if err != nil {
		d.invalid(owner, err)
		return nil, false
	}
	p := d.buf.newTime(tm)
	if d.buf.share {
		if d.datesSeen == nil {
			d.datesSeen = seenDatesPool.Get().(*seenDates)
		}
		d.datesSeen.add(raw, rfc822, p)
	}
	return p, true
}

// checkDate reads the date of the element name, written raw (not empty),
// as RFC 822 or as W3C Datetime, and fails, in both modes, when it cannot:
// the rule of the element is news-date-invalid for the date of a news
// entry, video-date-invalid for those of a video, lastmod-invalid for the
// date of an entry.
func checkDate(name string, raw []byte, rfc822 bool) (t time.Time, err error) {
	var ok bool
	if rfc822 {
		t, ok = dates.ParseRFC822(raw)
	} else {
		t, ok = dates.ParseW3C(raw)
	}
	if ok {
		return t, nil
	}
	code := CodeLastmodInvalid
	switch name {
	case "news:publication_date":
		code = CodeNewsDateInvalid
	case "video:expiration_date", "video:publication_date":
		code = CodeVideoDateInvalid
	}
	return t, broke(code, fmt.Errorf("invalid <%s> value %q", name, raw))
}

// maxSeenDate is the longest date, in bytes, that datesSeen keeps: a W3C
// date-time with an offset and nanoseconds has 35, an RFC 822 date with
// its day and a numeric zone 31.
const maxSeenDate = 40

// maxSeenDates is the most dates datesSeen holds: 896, under half the
// slots of its table, so that a probe of it meets an empty slot soon.
const maxSeenDates = 896

// seenBits sizes the table of seenDates: 1 << seenBits slots.
const seenBits = 11

// seenDates is the table of doc.datesSeen: the dates of a document as
// written, each with what newTime made of it. They are kept in the order
// they were added (dates), and found through a table of small slots probed
// in turn from the slot of a date's hash (seenSlot), each the place of a
// date in dates, plus one (0 is a slot that is empty). It stands where a
// map stood, whose lookup of a string cost an RSS item half of what its
// date costs now; the slots are small so that the table stays in the
// nearest cache. Its keys are cut from a buffer of its own, made for
// maxSeenDates keys of maxSeenDate bytes so that it is never reallocated,
// and tables are pooled between documents: a call of many sitemaps neither
// makes a table for each nor keeps their keys alive beside their URLs.
// Against a map it buys (issue 30, ARCHITECTURE.md "Speed machinery"): a
// map keyed by strings allocates every key, seven times the allocations of
// W1 and six times RSS's; one keyed by the bytes in a fixed array costs
// 2.7% more instructions on W1 and RSS, 5.5% on a 100-URL urlset.
type seenDates struct {
	slots [1 << seenBits]uint16
	dates []seenDate
	keys  []byte
	// rfc822 is the reader of the dates in the table, that of the first
	// one added (a feed's pubDate, say): a date read by the other is never
	// looked up in the table nor added to it, so that each reader's dates
	// are its own.
	rfc822 bool
}

// seenDate is a date of seenDates as written, its value, and its slot.
type seenDate struct {
	raw  string
	p    *LastModTime
	slot int
}

var seenDatesPool = sync.Pool{New: func() any {
	return &seenDates{
		dates: make([]seenDate, 0, maxSeenDates),
		keys:  make([]byte, 0, maxSeenDates*maxSeenDate),
	}
}}

// seenSlot is the slot of seenDates a date written raw, of at most
// maxSeenDate bytes, is looked for from: a hash of all its bytes, read
// eight at a time (the last eight overlapping those before them).
func seenSlot(raw []byte) int {
	n := len(raw)
	var h uint64
	if n < 8 {
		for i, c := range raw {
			h |= uint64(c) << (8 * i)
		}
		h *= 0x9e3779b97f4a7c15
	} else {
		for i := 0; i < n-8; i += 8 {
			h = (h ^ binary.LittleEndian.Uint64(raw[i:])) * 0x9e3779b97f4a7c15
		}
		h = (h ^ binary.LittleEndian.Uint64(raw[n-8:])) * 0x9e3779b97f4a7c15
	}
	return int((h ^ uint64(n)) * 0xc2b2ae3d27d4eb4f >> (64 - seenBits))
}

// get returns the date written raw, read as RFC 822 or as W3C, or nil when
// the table (nil before the first date of a document that shares them)
// does not have it.
func (s *seenDates) get(raw []byte, rfc822 bool) *LastModTime {
	if s == nil || s.rfc822 != rfc822 || len(raw) > maxSeenDate {
		return nil
	}
	for i := seenSlot(raw); ; i = (i + 1) & (len(s.slots) - 1) {
		k := s.slots[i]
		if k == 0 {
			return nil
		}
		if d := &s.dates[k-1]; d.raw == string(raw) {
			return d.p
		}
	}
}

// add records that the date written raw, read as RFC 822 or as W3C, is p,
// while the table has room and holds the dates of that reader. raw is not
// in the table yet.
func (s *seenDates) add(raw []byte, rfc822 bool, p *LastModTime) {
	if len(s.dates) == 0 {
		s.rfc822 = rfc822
	}
	if len(raw) > maxSeenDate || len(s.dates) >= maxSeenDates || s.rfc822 != rfc822 {
		return
	}
	i := seenSlot(raw)
	for s.slots[i] != 0 {
		i = (i + 1) & (len(s.slots) - 1)
	}
	off := len(s.keys)
	s.keys = append(s.keys, raw...)
	s.dates = append(s.dates, seenDate{unsafe.String(&s.keys[off], len(raw)), p, i})
	s.slots[i] = uint16(len(s.dates))
}

// release empties the table, so that it keeps no date of the document
// alive, and gives it back to seenDatesPool.
func (s *seenDates) release() {
	for _, d := range s.dates {
		s.slots[d.slot] = 0
	}
	clear(s.dates)
	s.dates = s.dates[:0]
	s.keys = s.keys[:0]
	seenDatesPool.Put(s)
}

// intern returns b as a string cut from the document's arena (see
// docBuf.intern).
func (d *doc) intern(b []byte) string { return d.buf.intern(b) }

// imageSlots returns an empty slice with room for n images (see
// docBuf.imageSlots).
func (d *doc) imageSlots(n int) []Image { return d.buf.imageSlots(n) }

func (d *doc) sitemapEntry(e *rawEntry) {
	loc, ok := d.location(e, d.format == formatIndex)
	if !ok {
		return
	}
	// A date that cannot be parsed costs only itself, in both modes.
	lastmod, _ := d.date(&e.lastmod, "lastmod", false, loc)
	key := urlnorm.Key(loc)
	d.noteLastmod(key, e.lastmod.text(), lastmod)
	d.listSitemap(loc, key, lastmod)
	d.addChild(loc, key)
}

// listSitemap adds the sitemap at loc to those the document lists, taking
// its place from the listing limit of the call (MAXSITEMAPS-12) as it is
// listed. A sitemap the document listed before keeps its first spelling and
// the later of the dates, as one listed by a committed document does at
// commit, which takes no place of its own; S.commit gives back the place of
// one that a document read at the same time listed first.
func (d *doc) listSitemap(loc, key string, lastmod *LastModTime) {
	if i, ok := d.sitemapAt[key]; ok {
		if old := d.sitemaps[i].LastMod; lastmod != nil && (old == nil || lastmod.After(old.Time)) {
			d.sitemaps[i].LastMod = lastmod
		}
		return
	}
	if !d.c.s.hasSitemap(key) {
		if !d.c.listing.take() {
			d.listFull = true // recorded when the document is committed
			d.leftOut++
			return
		}
		d.nListed++
	}
	if d.sitemapAt == nil {
		d.sitemapAt = make(map[string]int)
	}
	d.sitemapAt[key] = len(d.sitemaps)
	d.sitemaps = append(d.sitemaps, Sitemap{Loc: loc, LastMod: lastmod})
	d.keys = append(d.keys, key)
}

// addChild adds the sitemap at loc to those the document leads to, when the
// follow rules let it be fetched: each once, and of those the call has not
// requested yet no more than the fetch limit leaves room for, and one more,
// whose turn records the limit (followChild). The room only shrinks while
// the document is read, so the sitemaps left out would never be fetched.
func (d *doc) addChild(loc, key string) {
	if !d.follows(loc) || d.childKeys[key] {
		return
	}
	if f := &d.c.fetched; f.limit > 0 && !d.c.isRequested(key) {
		if d.nFresh > f.limit-f.n.Load() {
			return
		}
		d.nFresh++
	}
	if d.childKeys == nil {
		d.childKeys = make(map[string]bool)
	}
	d.childKeys[key] = true
	d.children = append(d.children, child{loc: loc, key: key, node: -1, parent: d.node, found: d.found, lastmod: d.childLastmod(key)})
}

// listedOnly tells the listed hook of a URL the document lists and leaves
// out.
func (d *doc) listedOnly(loc string) {
	if h := d.hooks.listed; h != nil {
		h(loc)
	}
}

func (d *doc) pageEntry(e *rawEntry) bool {
	loc, ok := d.location(e, d.format == formatURLSet)
	if !ok {
		return true
	}
	// A page the URL rules leave out is not looked at further: its values
	// are none of the caller's concern.
	if len(d.c.cfg.rulesRE) > 0 && !matchAny(d.c.cfg.rulesRE, loc) {
		d.listedOnly(loc)
		return true
	}
	u := URL{Loc: loc, Source: d.src}
	// In strict mode the values of a <url> must parse, or the entry is
	// skipped; every value that fails is reported.
	strictURL := d.strict && d.format == formatURLSet
	lastmod, ok := d.date(&e.lastmod, e.dateName, e.dateRFC822, loc)
	u.LastMod = lastmod
	if d.c.cfg.cond.sinceLeavesOut(lastmod, textOf(&e.lastmod), e.dateRFC822) {
		d.sinceOut++
		d.listedOnly(loc)
		return true // older than Since: left out, and not counted
	}
	keep := ok || !strictURL
	if raw := textOf(&e.changefreq); len(raw) > 0 {
		cf, i := changeFreqOf(raw, d.strict)
		if err := changefreqRule(raw, i, d.strict); err != nil {
			d.invalid(loc, err)
			keep = false
		} else {
			u.ChangeFreq = d.buf.changeFreq(cf, i)
		}
	}
	if e.priority.set {
		raw := textOf(&e.priority)
		p, read := parseFloat32(raw)
		switch err := priorityRule(raw, p, read, d.strict); {
		case !read:
			d.invalid(loc, err)
			keep = keep && !strictURL
		case err != nil:
			d.invalid(loc, err)
			keep = false
		default:
			u.Priority = d.buf.newFloat(p)
		}
	}
	if !keep {
		return true
	}
	if len(e.images) > 0 || e.hasNews || len(e.videos) > 0 || len(e.links) > 0 {
		d.extensions(e, &u)
	}
	if h := d.hooks.url; h != nil {
		keep, src := h(u)
		if !keep {
			return true
		}
		if src.doc != nil {
			u.Source = src
		}
	}
	if !d.urlRoom() {
		d.flush()
		d.c.limitURLs()
		return false
	}
	d.uncounted++
	if d.c.emit != nil && !d.holds() {
		return d.emitURL(u)
	}
	d.buf.addURL(u)
	return true
}

// checkChangefreq is the rule changefreq-invalid of the <changefreq>
// written raw (not empty): the value it stands for (see changeFreqOf), and
// in strict mode a failure when it is none of the protocol's.
func checkChangefreq(raw []byte, strict bool) (cf string, i int, err error) {
	cf, i = changeFreqOf(raw, strict)
	return cf, i, changefreqRule(raw, i, strict)
}

// changefreqRule is checkChangefreq's rule, of the index changeFreqOf gave
// raw; small enough that the translate stage pays no call for a
// <changefreq> that passes.
func changefreqRule(raw []byte, i int, strict bool) error {
	if i >= 0 || !strict {
		return nil
	}
	return changefreqFailure(raw)
}

func changefreqFailure(raw []byte) error {
	return broke(CodeChangefreqInvalid, fmt.Errorf("strict mode: invalid <changefreq> value %q", raw))
}

// checkPriority is the rule priority-invalid of the <priority> written
// raw: its value, whether it could be read, and a failure when it could
// not (in both modes) or, in strict mode, when it is not from 0.0 to 1.0.
func checkPriority(raw []byte, strict bool) (p float32, read bool, err error) {
	p, read = parseFloat32(raw)
	return p, read, priorityRule(raw, p, read, strict)
}

// priorityRule is checkPriority's rule, of p, which parseFloat32 read from
// raw (read) or not; small enough that the translate stage pays no call
// for a priority that passes.
func priorityRule(raw []byte, p float32, read, strict bool) error {
	if read && (!strict || 0 <= p && p <= 1) {
		return nil
	}
	return priorityFailure(raw, read)
}

func priorityFailure(raw []byte, read bool) error {
	if !read {
		return broke(CodePriorityInvalid, fmt.Errorf("invalid <priority> value %q", raw))
	}
	return broke(CodePriorityInvalid, fmt.Errorf("strict mode: <priority> value %q is not between 0.0 and 1.0", raw))
}

// changeFreqOf returns the <changefreq> value raw stands for: in tolerant
// mode a value of the protocol in any letter case is that value. i is its
// index in changeFreqValues, or -1 when it is none of the protocol's.
//
// The values begin with seven different letters: the first letter of raw,
// in lower case, names the one value raw can be.
func changeFreqOf(raw []byte, strict bool) (cf string, i int) {
	if len(raw) > 0 {
		if i := changeFreqByLetter[raw[0]|0x20]; i >= 0 {
			v := changeFreqValues[i]
			if string(raw) == string(v) || !strict && len(raw) == len(v) && equalFoldLetters(raw, 0, string(v)) {
				return string(v), int(i)
			}
		}
	}
	return string(raw), -1
}

// changeFreqValues are the values of <changefreq> the protocol defines.
var changeFreqValues = [...]URLChangeFreq{ChangeFreqAlways, ChangeFreqHourly, ChangeFreqDaily, ChangeFreqWeekly, ChangeFreqMonthly, ChangeFreqYearly, ChangeFreqNever}

// changeFreqByLetter gives the index in changeFreqValues of the value that
// begins with a letter, in lower case, and -1 for any other byte.
var changeFreqByLetter = func() (t [256]int8) {
	for c := range t {
		t[c] = -1
	}
	for i, v := range changeFreqValues {
		if t[v[0]] >= 0 {
			panic("two values of <changefreq> begin with " + string(v[0]))
		}
		t[v[0]] = int8(i)
	}
	return t
}()

// textOf returns v.text(): the value without the white space around it. An
// empty value (an element of an image or a video that is not there), and
// one whose first and last bytes are printable ASCII, have none, which it
// tells without a call.
func textOf(v *value) []byte {
	b := v.b
	if len(b) == 0 {
		return nil // as bytes.TrimSpace returns it
	}
	if b[0]-0x21 < 0x5E && b[len(b)-1]-0x21 < 0x5E {
		return b
	}
	return v.text()
}

// parseFloat32 parses a decimal number; an empty value is 0. Hexadecimal
// floats, infinities and NaN, which strconv knows, are no decimal numbers.
func parseFloat32(raw []byte) (float32, bool) {
	if len(raw) == 3 && raw[1] == '.' && raw[0]-'0' < 10 && raw[2]-'0' < 10 {
		return tenths[raw[0]-'0'][raw[2]-'0'], true // d.d, as nearly every <priority>
	}
	if len(raw) == 0 {
		return 0, true
	}
	for _, c := range raw {
		if !('0' <= c && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(string(raw), 32)
	if err != nil {
		return 0, false
	}
	return float32(f), true
}

// tenths[a][b] is what strconv makes of "a.b" as a float32.
var tenths = func() (t [10][10]float32) {
	for a := range 10 {
		for b := range 10 {
			f, _ := strconv.ParseFloat(fmt.Sprintf("%d.%d", a, b), 32)
			t[a][b] = float32(f)
		}
	}
	return t
}()

// parseInt parses a whole number; an empty value is 0.
func parseInt(raw []byte) (int, bool) {
	if len(raw) == 0 {
		return 0, true
	}
	n, err := strconv.Atoi(string(raw))
	return n, err == nil
}
