package sitemap

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/gositemap/sitemap/internal/dates"
	"github.com/gositemap/sitemap/internal/xmlscan"
)

// This file is the translate stage: it checks the raw entries a parse stage
// hands on, in tolerant or strict mode, and turns them into the URLs,
// sitemaps and validation errors of one document.

// errNoLoc is the cause of the *ValidationError of an entry without a
// location.
var errNoLoc = errors.New("<loc> of an entry is empty or missing")

// errForbiddenReference is the cause of the *ValidationError of an entry
// that, in tolerant mode, holds a character reference to a code point XML
// forbids. The entry is skipped; strict mode rejects the document.
var errForbiddenReference = errors.New("entry holds a character reference to a code point that XML forbids (shown as U+FFFD)")

// errNoURLLines is the cause of the *ParseError of a text document with no
// line that is a URL.
var errNoURLLines = errors.New("not a sitemap: no XML root element, and no line begins with http:// or https://")

// More formats, besides the XML ones of parse_xml.go.
const (
	formatText docFormat = iota + 100
	formatRobots
)

// doc gathers what one document yields until it is committed to the
// results, all together, or discarded when the document turns out to be
// broken. It is the sink of the parse stages.
type doc struct {
	c       *call
	base    *url.URL // the URL the document was served from
	baseStr string
	strict  bool
	format  docFormat
	lines   int // the URL lines of a text sitemap

	urls     [][]URL         // in chunks, see addURL
	list     []URL           // or in one array, see alone
	in       *measuredReader // the body of a document read alone, see alone
	sitemaps []Sitemap
	keys     []string
	children []child
	errs     []error
	nValErrs int64 // validation errors taken from the limit of the call

	// The sitemaps the document lists are counted against the listing
	// limit of the call as they are listed, and those to follow against
	// its fetch limit, so that a document naming millions of sitemaps
	// holds no more than the limits keep (see listSitemap and addChild).
	sitemapAt map[string]int  // sitemapKey → index in sitemaps
	childKeys map[string]bool // the keys of children
	nListed   int64           // listing units taken from the call
	nFresh    int64           // children not requested when listed
	listFull  bool            // a sitemap was left out for the listing limit

	// uncounted are the URLs the document has taken that the URL limit
	// of the call does not count yet: all of them until the document is
	// committed, or the batch of a streaming call until it is handed on.
	// A URL is counted once, then, rather than each on its own in a
	// counter that every goroutine of the call writes to.
	uncounted int64

	// A streaming call hands its URLs on in batches (see emitURL).
	pending *[]item
	ended   bool // it hands on no more: the loop has ended, or the URL limit is reached

	// The values the URLs of the document share, so that many URLs that
	// give the same date, priority or change frequency hold one copy of
	// it. A streaming call shares nothing: each URL it hands on is the
	// loop's own, to change at will.
	share         bool
	sharedTimes   map[time.Time]*LastModTime
	sharedFloats  [16]*float32 // the first nSharedFloats, see newFloat
	nSharedFloats int
	knownFreqs    [len(changeFreqValues)]*URLChangeFreq
	changeFreqs   map[string]*URLChangeFreq // the values of no constant

	// What is left of the slabs that values are cut from, many at once
	// rather than one allocation each.
	times  []LastModTime   // newTime
	floats []float32       // newFloat
	freqs  []URLChangeFreq // changeFreq, in a streaming call
	images []Image         // imageSlots
	arena  []byte          // intern, for strings
}

func newDoc(c *call, base *url.URL, baseStr string) *doc {
	return &doc{c: c, base: base, baseStr: baseStr, strict: c.cfg.strict, share: c.emit == nil}
}

// parse decodes body and runs the parse stage its format calls for.
func (d *doc) parse(body io.Reader, robots bool) error {
	var beforeRead func()
	if d.c.emit != nil {
		beforeRead = func() { d.flush() }
	}
	r, done, err := decode(d.c.ctx, body, d.c.cfg.maxResponseSize, beforeRead)
	defer done()
	if err != nil {
		return unwrapDecode(err)
	}
	if robots {
		d.format = formatRobots
		return unwrapDecode(parseRobots(r, d))
	}
	xml, err := isXML(r)
	if err != nil {
		return unwrapDecode(err)
	}
	if !xml {
		d.format = formatText
		if err := parseText(r, d); err != nil {
			return unwrapDecode(err)
		}
		if d.lines == 0 {
			return errNoURLLines
		}
		return nil
	}
	tr, err := transcode(r)
	if err != nil {
		return unwrapDecode(err)
	}
	tk := newTokenizer(tr, d.strict)
	defer tk.Release() // the parse stage keeps copies of what it keeps
	return unwrapDecode(parseXML(tk, d.strict, d))
}

// newTokenizer returns the tokenizer the XML parse stage reads from: the
// scanner of internal/xmlscan, which reads every document as encoding/xml
// does (FuzzScanDifferential holds it to that) at ten times the speed,
// keeping the attributes attrsRead names.
func newTokenizer(r io.Reader, strict bool) *xmlscan.Scanner {
	return xmlscan.New(r, strict, attrsRead)
}

// unwrapDecode turns an error of the decode stage into its cause.
func unwrapDecode(err error) error {
	var de *decodeError
	if errors.As(err, &de) {
		return de.err
	}
	return err
}

// discard gives back what the document took from the limits of the call.
func (d *doc) discard() {
	d.c.valErrs.giveBack(d.nValErrs)
	d.c.listing.giveBack(d.nListed)
}

// urlRoom reports whether the URL limit leaves room for one more URL of the
// document. Other documents read at the same time may take the same room:
// countURLs settles that when the URLs are counted.
func (d *doc) urlRoom() bool { return d.c.urls.room(d.uncounted) }

// countURLs counts k URLs of the document against the URL limit of the
// call, and returns how many of them it leaves room for: the caller keeps
// those, leaves out the rest and reports the limit.
func (d *doc) countURLs(k int64) int64 {
	got := d.c.urls.takeUpTo(k)
	d.uncounted -= k
	return got
}

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

func (d *doc) root(f docFormat) { d.format = f }

func (d *doc) begin() bool {
	if d.format == formatIndex || d.format == formatRobots {
		return true
	}
	if d.format == formatText {
		// A line that is a URL makes the document a text sitemap, even
		// when the URL limit leaves it unread.
		d.lines++
	}
	if !d.urlRoom() {
		d.flush()
		d.c.limitURLs()
		return false
	}
	return true
}

func (d *doc) entry(e *rawEntry) bool {
	if e.forbidden {
		u := d.baseStr
		if raw := e.loc.text(); len(raw) > 0 {
			u = string(raw)
		}
		d.invalid(u, errForbiddenReference)
		return true
	}
	if e.sitemap {
		d.sitemapEntry(e)
		return true
	}
	return d.pageEntry(e)
}

// location checks the location of an entry; ok is false when the entry is
// to be skipped.
func (d *doc) location(e *rawEntry, sameSite bool) (loc string, ok bool) {
	raw := e.loc.text()
	if len(raw) == 0 {
		if !e.feed {
			d.invalid(d.baseStr, errNoLoc)
		}
		return "", false
	}
	written := d.intern(raw)
	loc, err := normalizeLoc(written, d.base, d.strict)
	if err == nil && d.strict && sameSite {
		err = checkSameSite(loc, d.base)
	}
	if err != nil {
		d.invalid(written, err)
		return "", false
	}
	return loc, true
}

// date parses the date of an entry: nil when there is none or it is empty,
// nil and reported when it cannot be parsed (ok is false then).
func (d *doc) date(v *value, name string, rfc822 bool, owner string) (t *LastModTime, ok bool) {
	raw := v.text()
	if len(raw) == 0 {
		return nil, true
	}
	var tm time.Time
	if rfc822 {
		tm, ok = dates.ParseRFC822(raw)
	} else {
		tm, ok = dates.ParseW3C(raw)
	}
	if !ok {
		d.invalid(owner, fmt.Errorf("invalid <%s> value %q", name, raw))
		return nil, false
	}
	return d.newTime(tm), true
}

// urlChunk is how many URLs one chunk of a document's buffer holds. A
// buffer of chunks grows without copying what it holds, so a document's
// URLs are copied once, into the results, rather than at every growth.
const urlChunk = 1024

// urlChunks holds the chunks of documents that have been committed, for the
// next documents to fill: a call of many large sitemaps then leaves no chunk
// behind for the garbage collector, only the URLs it keeps.
var urlChunks = sync.Pool{New: func() any { return new([urlChunk]URL) }}

// alone lets a document that is read while no other is, and whose size is
// known, hand its URLs to the results in an array they take over as it is,
// rather than in chunks they copy. The document fills chunks at first, like
// any other; once it has read an eighth of its bytes, it can tell how many
// URLs it holds (the URLs so far, for the bytes read so far), and moves
// them into one array sized for that many (see moveToList). alone returns
// the body to parse in place of body: it counts the bytes read.
func (d *doc) alone(body io.Reader, size int64) io.Reader {
	d.in = &measuredReader{r: body, size: size}
	return d.in
}

// addURL keeps u among the URLs of the document: in its array once it has
// one (see alone), in its chunks until then.
func (d *doc) addURL(u URL) {
	if d.list != nil {
		if len(d.list) == cap(d.list) {
			d.growList()
		}
		d.list = append(d.list, u)
		return
	}
	if n := len(d.urls); n == 0 || len(d.urls[n-1]) == cap(d.urls[n-1]) {
		if n > 0 && d.in != nil && d.moveToList() {
			d.list = append(d.list, u)
			return
		}
		if n == 0 {
			d.urls = append(d.urls, make([]URL, 0, 64)) // most documents are small
		} else {
			d.urls = append(d.urls, urlChunks.Get().(*[urlChunk]URL)[:0])
		}
	}
	last := &d.urls[len(d.urls)-1]
	*last = append(*last, u)
}

// moveToList moves the URLs of a document read alone out of its chunks,
// which are full, into one array, once an eighth of the document's bytes
// have been read; it reports whether it did.
func (d *doc) moveToList() bool {
	if d.in.position() < d.in.size/8 {
		return false
	}
	n := 0
	for _, chunk := range d.urls {
		n += len(chunk)
	}
	d.list = make([]URL, 0, d.listSize(n))
	for _, chunk := range d.urls {
		d.list = append(d.list, chunk...)
	}
	d.releaseChunks()
	return true
}

// growList makes room in d.list for more URLs than the document was
// expected to hold.
func (d *doc) growList() {
	grown := make([]URL, len(d.list), d.listSize(len(d.list)))
	copy(grown, d.list)
	d.list = grown
}

// listSize is the room for the URLs of a document read alone that has given
// n so far: as many as it is expected to hold, by the URLs it has given for
// the bytes read so far. The bytes read run ahead of the parse by a buffer
// or two (see measuredReader), so the estimate is a little low: it is
// raised by an eighth. The room grows by an eighth at the least, so that a
// document denser at its end costs few copies. Since an eighth of the
// document has been read, the estimate is at most eight times n (unless the
// size given was wrong: it is held to that), so a document whose URLs all
// come at its start costs room for at most nine times the URLs it gave.
func (d *doc) listSize(n int) int {
	size := n + n/8
	if read := d.in.position(); read > 0 {
		est := int(min(float64(n)*float64(d.in.size)/float64(read), float64(8*n)))
		size = max(size, est+est/8)
	}
	if limit := d.c.cfg.maxURLs; limit > 0 {
		size = min(size, limit)
	}
	return max(size, n+1)
}

// keepURLs counts the URLs of a document that is to be committed against the
// URL limit, and leaves out those it has no room for, which documents read
// at the same time took; full reports whether it left any out.
func (d *doc) keepURLs() (full bool) {
	n := int64(len(d.list))
	for _, chunk := range d.urls {
		n += int64(len(chunk))
	}
	got := d.countURLs(n)
	if got == n {
		return false
	}
	if d.list != nil {
		clear(d.list[got:])
		d.list = d.list[:got]
		return true
	}
	for i, chunk := range d.urls {
		if int64(len(chunk)) > got {
			clear(chunk[got:])
			d.urls[i] = chunk[:got]
		}
		got -= int64(len(d.urls[i]))
	}
	return true
}

// releaseURLs lets go of the document's URLs once the results have them.
func (d *doc) releaseURLs() {
	d.releaseChunks()
	d.list = nil
}

// releaseChunks gives the document's chunks back to urlChunks once their
// URLs have been copied. They are cleared first: a pooled chunk must not
// keep the strings and dates of the URLs alive.
func (d *doc) releaseChunks() {
	for _, chunk := range d.urls {
		if cap(chunk) == urlChunk {
			clear(chunk)
			urlChunks.Put((*[urlChunk]URL)(chunk[:urlChunk]))
		}
	}
	d.urls = nil
}

// arenaChunk is the size of the chunks of bytes that the strings of a
// document are cut from.
const arenaChunk = 16 << 10

// intern returns b as a string cut from the document's arena: many short
// strings share one allocation. Bytes are only ever appended to a chunk,
// never changed once a string stands on them, so the strings are as
// immutable as any other.
func (d *doc) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaChunk/8 {
		return string(b)
	}
	if cap(d.arena)-len(d.arena) < len(b) {
		d.arena = make([]byte, 0, arenaChunk)
	}
	off := len(d.arena)
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[off], len(b))
}

// imageSlots returns an empty slice with room for n images, cut from a
// slab the document allocates for the images of many URLs at once.
func (d *doc) imageSlots(n int) []Image {
	if len(d.images) < n {
		d.images = make([]Image, max(slabSize, n))
	}
	s := d.images[:0:n]
	d.images = d.images[n:]
	return s
}

// slabSize is how many dates, priorities or change frequencies are
// allocated together.
const slabSize = 256

// fromSlab returns a pointer to v, cut from *slab, which is refilled with
// slabSize new values when it runs out: one allocation for many values.
func fromSlab[T any](slab *[]T, v T) *T {
	if len(*slab) == 0 {
		*slab = make([]T, slabSize)
	}
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	*p = v
	return p
}

// maxShared bounds the dates and the change frequencies a document shares
// among its URLs, so that a document of all different values costs a
// bounded map.
const maxShared = 1024

// newTime returns a *LastModTime holding t. The URLs of a document that
// give the same date share one (see doc.share): sitemaps tend to repeat a
// few dates many times over. Other dates are cut from a slab the document
// allocates for many of them at once, rather than one allocation each.
func (d *doc) newTime(t time.Time) *LastModTime {
	if p := d.sharedTimes[t]; p != nil {
		return p
	}
	p := fromSlab(&d.times, LastModTime{t})
	if !d.share {
		return p
	}
	if d.sharedTimes == nil {
		d.sharedTimes = make(map[time.Time]*LastModTime)
	}
	if len(d.sharedTimes) < maxShared {
		d.sharedTimes[t] = p
	}
	return p
}

// newFloat returns a *float32 holding f, shared and cut from a slab as
// newTime's dates are. A document gives few priorities (0.1 to 1.0, as a
// rule): the shared ones are looked up in a short array, not a map.
func (d *doc) newFloat(f float32) *float32 {
	for _, p := range d.sharedFloats[:d.nSharedFloats] {
		if math.Float32bits(*p) == math.Float32bits(f) {
			return p
		}
	}
	p := fromSlab(&d.floats, f)
	if d.share && d.nSharedFloats < len(d.sharedFloats) {
		d.sharedFloats[d.nSharedFloats] = p
		d.nSharedFloats++
	}
	return p
}

func (d *doc) sitemapEntry(e *rawEntry) {
	loc, ok := d.location(e, d.format == formatIndex)
	if !ok {
		return
	}
	// A date that cannot be parsed costs only itself, in both modes.
	lastmod, _ := d.date(&e.lastmod, "lastmod", false, loc)
	key := sitemapKey(loc)
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
	if !d.c.followed(loc) || d.childKeys[key] {
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
	d.children = append(d.children, child{loc: loc, key: key})
}

func (d *doc) pageEntry(e *rawEntry) bool {
	loc, ok := d.location(e, d.format == formatURLSet)
	if !ok {
		return true
	}
	// A page the URL rules leave out is not looked at further: its values
	// are none of the caller's concern.
	if len(d.c.cfg.rulesRE) > 0 && !matchAny(d.c.cfg.rulesRE, loc) {
		return true
	}
	u := URL{Loc: loc}
	// In strict mode the values of a <url> must parse, or the entry is
	// skipped; every value that fails is reported.
	strictURL := d.strict && d.format == formatURLSet
	lastmod, ok := d.date(&e.lastmod, e.dateName, e.dateRFC822, loc)
	u.LastMod = lastmod
	keep := ok || !strictURL
	if raw := e.changefreq.text(); len(raw) > 0 {
		cf, i := changeFreqOf(raw, d.strict)
		if i < 0 && d.strict {
			d.invalid(loc, fmt.Errorf("strict mode: invalid <changefreq> value %q", raw))
			keep = false
		} else {
			u.ChangeFreq = d.changeFreq(cf, i)
		}
	}
	if e.priority.set {
		raw := e.priority.text()
		p, ok := parseFloat32(raw)
		switch {
		case !ok:
			d.invalid(loc, fmt.Errorf("invalid <priority> value %q", raw))
			keep = keep && !strictURL
		case d.strict && (p < 0 || p > 1):
			d.invalid(loc, fmt.Errorf("strict mode: <priority> value %q is not between 0.0 and 1.0", raw))
			keep = false
		default:
			u.Priority = d.newFloat(p)
		}
	}
	if !keep {
		return true
	}
	d.extensions(e, &u)
	if !d.urlRoom() {
		d.flush()
		d.c.limitURLs()
		return false
	}
	d.uncounted++
	if d.c.emit != nil {
		return d.emitURL(u)
	}
	d.addURL(u)
	return true
}

// emitURL adds u to the batch the document of a streaming call hands on
// next; false when the loop has ended.
func (d *doc) emitURL(u URL) bool {
	if d.pending == nil {
		d.pending = itemBatches.Get().(*[]item) // empty: see itemBatches
	}
	*d.pending = append(*d.pending, item{u: u})
	if len(*d.pending) < streamBatch {
		return !d.ended
	}
	return d.flush()
}

// flush hands on the URLs of a streaming call's document that wait in its
// batch: when the batch is full, before the document reads more input
// (which may mean waiting for the network), and before anything else about
// the document is recorded, so that the loop gets them in order and without
// delay. It returns false when the loop has ended.
func (d *doc) flush() bool {
	if d.pending == nil || d.ended {
		return !d.ended
	}
	b := d.pending
	d.pending = nil
	full := false
	if got := d.countURLs(int64(len(*b))); got < int64(len(*b)) {
		// Documents read at the same time took the room: what does not
		// fit is left out, after what does.
		clear((*b)[got:])
		*b, full = (*b)[:got], true
	}
	if len(*b) > 0 && !d.c.emitBatch(b) {
		d.ended = true
	}
	if full && !d.ended {
		d.c.limitURLs()
		d.ended = true
	}
	return !d.ended
}

// changeFreqOf returns the <changefreq> value raw stands for: in tolerant
// mode a value of the protocol in any letter case is that value. i is its
// index in changeFreqValues, or -1 when it is none of the protocol's.
func changeFreqOf(raw []byte, strict bool) (cf string, i int) {
	for i, v := range changeFreqValues {
		if string(raw) == string(v) || !strict && len(raw) == len(v) && equalFoldLetters(raw, 0, string(v)) {
			return string(v), i
		}
	}
	return string(raw), -1
}

// changeFreqValues are the values of <changefreq> the protocol defines.
var changeFreqValues = [...]URLChangeFreq{ChangeFreqAlways, ChangeFreqHourly, ChangeFreqDaily, ChangeFreqWeekly, ChangeFreqMonthly, ChangeFreqYearly, ChangeFreqNever}

// changeFreq returns a *URLChangeFreq holding cf, whose index in
// changeFreqValues is i (-1 for another value): the one the URLs of the
// document that give cf share, or in a streaming call one of the URL's own,
// cut from a slab (see doc.share).
func (d *doc) changeFreq(cf string, i int) *URLChangeFreq {
	if !d.share {
		return fromSlab(&d.freqs, URLChangeFreq(cf))
	}
	if i >= 0 {
		if d.knownFreqs[i] == nil {
			d.knownFreqs[i] = new(URLChangeFreq)
			*d.knownFreqs[i] = changeFreqValues[i]
		}
		return d.knownFreqs[i]
	}
	if p, ok := d.changeFreqs[cf]; ok {
		return p
	}
	p := new(URLChangeFreq)
	*p = URLChangeFreq(cf)
	if d.changeFreqs == nil {
		d.changeFreqs = map[string]*URLChangeFreq{}
	}
	if len(d.changeFreqs) < maxShared {
		d.changeFreqs[cf] = p
	}
	return p
}

// parseFloat32 parses a decimal number; an empty value is 0. Hexadecimal
// floats, infinities and NaN, which strconv knows, are no decimal numbers.
func parseFloat32(raw []byte) (float32, bool) {
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

// parseInt parses a whole number; an empty value is 0.
func parseInt(raw []byte) (int, bool) {
	if len(raw) == 0 {
		return 0, true
	}
	n, err := strconv.Atoi(string(raw))
	return n, err == nil
}
