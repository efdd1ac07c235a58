package sitemap

import (
	"io"
	"net/url"

	"github.com/gositemap/sitemap/internal/urlnorm"
	"github.com/gositemap/sitemap/internal/xmlscan"
)

// This file is the sink of the parse stages: doc, which gathers what one
// document yields until the call commits it (call.read) or discards it. It
// keeps the document's account with the limits of the call: what it took
// from them, and what it gives back when it is discarded. The translation
// of entries is in translate.go, the memory of the URLs in docbuf.go, the
// dispatch of formats in detect.go, and the batches of a streaming call in
// emit.go.

// doc gathers what one document yields until it is committed to the
// results, all together, or discarded when the document turns out to be
// broken. It is the sink of the parse stages.
type doc struct {
	c       *call
	base    *url.URL // the URL the document was served from
	baseStr string
	strict  bool
	format  docFormat
	lines   int    // the URL lines of a text sitemap
	src     Source // what its URLs tell of where they came from
	node    int    // its place in the tree of the call, -1 when it has none
	found   Found  // how the sitemaps it lists are found

	// For the tree of the call: how many bytes its body was, read and
	// decompressed, and how many of its URLs were counted (kept, or handed
	// to the loop of a streaming call).
	wire, decoded, kept int64

	buf      docBuf // its URLs, and the memory of their values
	sitemaps []Sitemap
	keys     []string
	children []child
	errs     []error
	nValErrs int64 // validation errors taken from the limit of the call

	// The sitemaps the document lists are counted against the listing
	// limit of the call as they are listed, and those to follow against
	// its fetch limit, so that a document naming millions of sitemaps
	// holds no more than the limits keep (see listSitemap and addChild).
	sitemapAt map[string]int  // urlnorm.Key → index in sitemaps
	childKeys map[string]bool // the keys of children
	nListed   int64           // listing units taken from the call
	leftOut   int             // sitemaps left out for the listing limit
	nFresh    int64           // children not requested when listed
	listFull  bool            // a sitemap was left out for the listing limit

	lastmodRaw map[string]string // <lastmod> as written by key, with a store or Since: conditional.go
	sinceOut   int               // URLs that Since left out

	// datesSeen holds the dates the document has given, as written,
	// with what newTime made of each: sitemaps repeat a few dates many times
	// over, and a date found here is neither parsed nor looked up again. It
	// holds no more than maxSeenDates dates, and none when the URLs of the
	// document share no date (docBuf.share).
	datesSeen *seenDates

	urls urlnorm.Recent // checks the URLs of the document, which tend to share a host or two

	// uncounted are the URLs the document has taken that the URL limit
	// of the call does not count yet: all of them until the document is
	// committed, or the batch of a streaming call until it is handed on.
	// A URL is counted once, then, rather than each on its own in a
	// counter that every goroutine of the call writes to.
	uncounted int64

	// A streaming call hands its URLs on in batches (see emitURL).
	pending *[]item
	ended   bool // it hands on no more: the loop has ended, or the URL limit is reached

	hooks *docHooks // what the features attached to the call observe of it (hooks.go), never nil
}

func newDoc(c *call, base *url.URL, baseStr string) *doc {
	d := &doc{c: c, base: base, baseStr: baseStr, strict: c.cfg.strict, node: -1, hooks: &noDocHooks}
	d.buf.share = c.emit == nil
	return d
}

// newTokenizer returns the tokenizer the XML parse stage reads from: the
// scanner of internal/xmlscan, which reads every document as encoding/xml
// does (FuzzScanDifferential holds it to that) at ten times the speed,
// keeping the attributes attrsRead names.
func newTokenizer(r io.Reader, strict bool) *xmlscan.Scanner {
	return xmlscan.New(r, strict, attrsRead)
}

// parseXMLDoc runs the XML parse stage over tr, which reads UTF-8.
func (d *doc) parseXMLDoc(tr io.Reader) error {
	tk := newTokenizer(tr, d.strict)
	defer tk.Release() // the parse stage keeps copies of what it keeps
	return parseXML(tk, d.strict, d, &d.hooks.xml)
}

// committed returns what the document yields, for S.commit; docsLeft is
// about how many documents of the call are still to be read.
func (d *doc) committed(docsLeft int) committed {
	list, chunks := d.buf.handOver()
	return committed{list: list, chunks: chunks, docsLeft: docsLeft,
		sitemaps: d.sitemaps, keys: d.keys, errs: d.errs, maxSitemaps: d.c.cfg.maxSitemaps,
		node: d.node, found: d.found, children: d.children, leftOut: d.leftOut}
}

// releaseURLs lets go of the document's URLs once the results have them,
// and of its table of dates.
func (d *doc) releaseURLs() {
	d.buf.release()
	if d.datesSeen != nil {
		d.datesSeen.release()
		d.datesSeen = nil
	}
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
	d.kept += got
	return got
}

// keepURLs counts the URLs of a document that is to be committed against the
// URL limit, and leaves out those it has no room for, which documents read
// at the same time took; full reports whether it left any out.
func (d *doc) keepURLs() (full bool) {
	n := int64(d.buf.count())
	got := d.countURLs(n)
	if got == n {
		return false
	}
	d.buf.keep(int(got))
	return true
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

// follows reports whether the sitemap at loc, which d lists, may be
// fetched: the follow rules, Selection.RootOnly, and the document's own noFollow.
func (d *doc) follows(loc string) bool {
	return d.c.followed(loc) && (d.hooks.follow == nil || d.hooks.follow(loc))
}

// holds tells whether d, a document of a streaming call, holds its URLs
// until its keep hook has kept it (handOn), rather than handing each on as
// it is read: a feature that decides at the end whether a document counts
// sees none of its URLs reach the loop before.
func (d *doc) holds() bool { return d.c.emit != nil && d.hooks.keep != nil }
