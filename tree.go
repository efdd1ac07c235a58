package sitemap

import (
	"errors"
	"time"
)

// This file is the tree of a call: a record of every document the call came
// to know of, as part of the result set. Like the rest of the results, the
// records are touched only under s.mu; a call reaches them through addDoc,
// updateDoc and endDocs, and the caller through GetDocuments.

// Found tells how a call came to know of a document.
type Found string

// The ways a document is found.
const (
	FoundRoot      Found = "root"       // passed to the call
	FoundRobots    Found = "robots"     // a Sitemap: line of a robots.txt
	FoundIndex     Found = "index"      // a <sitemap> entry of a sitemap index
	FoundWellKnown Found = "well-known" // a path that sitemap generators write, tried by discovery
	FoundHomePage  Found = "home-page"  // a <link rel="sitemap"> of a site's home page
	FoundFeed      Found = "feed"       // an RSS or Atom feed that a site's home page announces
)

// Status is what became of a document of a call.
type Status string

// The statuses of a document. A document is queued when it is listed and
// reading while it is read; once the call has ended, it has one of the
// others.
const (
	// StatusQueued: listed, and waiting for its turn.
	StatusQueued Status = "queued"
	// StatusReading: being fetched or parsed.
	StatusReading Status = "reading"
	// StatusParsed: read to its end; Err is nil.
	StatusParsed Status = "parsed"
	// StatusPartial: read in part, and what was complete of it kept: it
	// was cut off (tolerant mode), the reader given failed mid-way, or the
	// context ended while it was read. Err says why.
	StatusPartial Status = "partial"
	// StatusFailed: it yielded nothing; Err is its *NetworkError,
	// *ParseError or *ValidationError.
	StatusFailed Status = "failed"
	// StatusNotFollowed: listed, and not fetched because of a follow rule
	// ([S.SetFollow]) or [Selection.RootOnly]; for a well-known path of a
	// discovery, not requested because of a follow rule.
	StatusNotFollowed Status = "not-followed"
	// StatusLimited: listed, and not fetched because of a limit: the depth
	// ([S.SetMaxDepth]), the sitemaps ([S.SetMaxSitemaps]) or the URLs
	// ([S.SetMaxURLs]), or for a place of a discovery its budget
	// ([DiscoverOptions] MaxRequests). Err names the limit when the call
	// recorded it.
	StatusLimited Status = "limited"
	// StatusNotReached: listed, and not fetched because the call ended
	// first: its context ended, or the loop of a Stream was left.
	StatusNotReached Status = "not-reached"
	// StatusDuplicate: not read on its own because it is another document
	// of the call: its request was redirected to a sitemap the call had
	// requested already, or another request was redirected to it first. A
	// place of a discovery is one as well when it is a sitemap with the
	// content of one found before it, or is listed or requested by another
	// document already; Err says which.
	StatusDuplicate Status = "duplicate"
	// StatusNotSitemap: a place a discovery tried ([S.Discover]) that
	// answered with something that is no sitemap: an HTML page (a soft
	// 404, say), or a document that does not parse. Err says why.
	StatusNotSitemap Status = "not-sitemap"
	// StatusUnchanged: not read again because the server or the store of
	// an earlier run says it has not changed (conditional fetching).
	StatusUnchanged Status = "unchanged"
	// StatusNotModifiedSince: not fetched because the <lastmod> its index
	// gives is older than the time a call asks for changes since.
	StatusNotModifiedSince Status = "not-modified-since"
)

// Format is the format a document was read as.
type Format string

// The formats of a document; "" when it is not known (a document that was
// not read, or failed before its format was told).
const (
	FormatURLSet Format = "urlset" // a sitemaps.org <urlset>
	FormatIndex  Format = "index"  // a sitemaps.org <sitemapindex>
	FormatRSS    Format = "rss"    // RSS 2.0 or 0.9x
	FormatRDF    Format = "rdf"    // RSS 1.0 (RDF)
	FormatAtom   Format = "atom"   // Atom 1.0 or 0.3
	FormatText   Format = "text"   // a text sitemap, a URL a line
	FormatRobots Format = "robots" // a robots.txt
	FormatHTML   Format = "html"   // a home page, read by a discovery for the sitemaps it links to
)

// Document is one document of a call, as [S.GetDocuments] reports it: the
// document given, a robots.txt, a sitemap index or a sitemap, read or not.
type Document struct {
	// URL is the URL the document is requested as: the one passed to the
	// call, or its location as the document that lists it gives it.
	URL string
	// Found tells how the call came to know of it.
	Found Found
	// Parent is the index, in the slice GetDocuments returns, of the
	// document that listed it first; -1 for the document given.
	Parent int
	// Depth is how many documents lie between it and the document given:
	// 0 for that one, 1 for what it lists, and so on.
	Depth int
	// Status is what became of it; Err says why, when it was not parsed
	// whole.
	Status Status
	Err    error
	// Format is the format it was read as.
	Format Format
	// LastMod is the <lastmod> of the index entry that listed it (the
	// latest, when several did), nil when there is none.
	LastMod *LastModTime

	// What its response said: the URL it was served from after redirects,
	// the HTTP status (0 when no response came, or nothing was fetched),
	// and the Content-Type, ETag and Last-Modified headers, as the server
	// sent them (empty for a value of more than 1 KiB, which is not kept).
	// For the document given as content or a reader, FinalURL is URL and
	// the rest is empty.
	FinalURL     string
	HTTPStatus   int
	ContentType  string
	ETag         string
	LastModified string

	// WireBytes is the size of its body as read (compressed, when it is
	// gzipped), DecodedBytes its size decompressed.
	WireBytes, DecodedBytes int64
	// URLs is how many of its URLs the call kept (or handed to the loop of
	// a Stream); Errors how many errors the call recorded about it.
	URLs, Errors int
	// LeftOut is how many of the sitemaps it lists were left out because
	// the listing limit ([S.SetMaxSitemaps]) was reached: they are not
	// documents of the call.
	LeftOut int
	// Duration is the time from its request (or the start of its reading,
	// for a document given) to the end of its parse.
	Duration time.Duration

	// Changes are, for the document given of a call with
	// [Incremental.Changes] on, the counts of the call; nil otherwise.
	Changes *ChangeCounts
}

// GetDocuments returns every document the latest call came to know of, in
// the order it did: the document given first, then each sitemap as a
// document that lists it is committed, each once. Parent links each to the
// document that listed it first, so the slice is the tree of the call.
// Like the other getters it may be called while a call runs, and then
// reports where each document stands.
//
// A sitemap is a document of the call when it is listed within the
// listing limit ([S.SetMaxSitemaps]), as [S.GetSitemaps] lists it; those
// the limit leaves out are counted in their parent's LeftOut. The slice is
// a copy, and is never nil, for a nil *S either.
func (s *S) GetDocuments() []Document {
	if s == nil {
		return []Document{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialise()
	out := make([]Document, 0, s.docs.n)
	for _, block := range s.docs.blocks {
		for _, d := range block {
			d.LastMod = copyTime(d.LastMod)
			out = append(out, d)
		}
	}
	return out
}

// docTree holds the documents of a call in blocks of a fixed size, so that
// a tree of many documents grows without copying them: the copies that a
// slice grown by append leaves to the garbage collector were five times
// the size of the tree of an index of 50,000 sitemaps. The first block
// alone grows by append, from room for one document up to treeBlock: most
// calls read one document or a few, and a block of 256 records made for
// each was half of what parsing a document of ten URLs allocated. A
// *Document of the tree is held only under s.mu, never across an add.
type docTree struct {
	blocks [][]Document
	n      int
}

const treeBlock = 256

// at returns the document at index i, nil when there is none.
func (t *docTree) at(i int) *Document {
	if i < 0 || i >= t.n {
		return nil
	}
	return &t.blocks[i/treeBlock][i%treeBlock]
}

// add appends d and returns its index.
func (t *docTree) add(d Document) int {
	switch {
	case t.n == 0:
		t.blocks = append(t.blocks, make([]Document, 0, 1))
	case t.n%treeBlock == 0:
		t.blocks = append(t.blocks, make([]Document, 0, treeBlock))
	}
	last := len(t.blocks) - 1
	t.blocks[last] = append(t.blocks[last], d)
	t.n++
	return t.n - 1
}

// addDoc adds a document to the tree, under key, and returns its index.
// s.mu is held.
func (s *S) addDoc(key string, d Document) int {
	i := s.docs.add(d)
	s.docPos[key] = i
	return i
}

// updateDoc changes the record of the document at index i (none when i is
// below 0).
func (s *S) updateDoc(i int, f func(*Document)) {
	if i < 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs.at(i); d != nil {
		f(d)
	}
}

// docAt returns the index of the document of key in the tree, -1 when it is
// none of its documents.
func (s *S) docAt(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.docPos[key]; ok {
		return i
	}
	return -1
}

// docURL returns the URL of the document at place i of the tree, as it
// was requested (or given); false when i is no place of it.
func (s *S) docURL(i int) (string, bool) {
	if i < 0 {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs.at(i); d != nil {
		return d.URL, true
	}
	return "", false
}

// endDocs gives every document still queued or being read when the call
// ends the status of one the call did not reach.
func (s *S) endDocs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, block := range s.docs.blocks {
		for i := range block {
			if d := &block[i]; d.Status == StatusQueued || d.Status == StatusReading {
				d.Status = StatusNotReached
			}
		}
	}
}

// formatOf returns the Format of a docFormat.
func formatOf(f docFormat) Format {
	switch f {
	case formatURLSet:
		return FormatURLSet
	case formatIndex:
		return FormatIndex
	case formatRSS:
		return FormatRSS
	case formatRDF:
		return FormatRDF
	case formatAtom:
		return FormatAtom
	case formatText:
		return FormatText
	case formatRobots:
		return FormatRobots
	}
	return ""
}

// addRoot adds the document given to a call to its tree, which it begins.
func (s *S) addRoot(url, key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addDoc(key, Document{URL: url, Found: FoundRoot, Parent: -1, Status: StatusQueued})
}

// addFetched adds to the tree a sitemap to be read that is none of its
// documents: one the listing limit left out of GetSitemaps, which the
// fetch limit still lets be read. It returns its place.
func (s *S) addFetched(ch child) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.docPos[ch.key]; ok {
		return i
	}
	depth := 0
	if p := s.docs.at(ch.parent); p != nil {
		depth = p.Depth + 1
	}
	return s.addDoc(ch.key, Document{URL: ch.loc, Found: ch.found, Parent: ch.parent, Depth: depth, Status: StatusQueued})
}

// The call's side of the tree: what it records of each document as it
// reads it.

// opened records what the request of the document at node yielded: the
// response, or the error of a request that failed, or the redirect to a
// document the call has requested already.
func (c *call) opened(node int, src source, err error, start time.Time) {
	c.s.updateDoc(node, func(n *Document) {
		r := src.resp
		n.FinalURL, n.HTTPStatus = r.final, r.status
		if r.final == n.URL {
			n.FinalURL = n.URL // one string kept, not two alike
		}
		n.ContentType, n.ETag, n.LastModified = r.contentType, r.etag, r.lastModified
		switch {
		case err != nil:
			var es *statusError
			if errors.As(err, &es) {
				n.HTTPStatus = es.v.code
			}
			n.Status, n.Err, n.Errors = StatusFailed, err, 1
			n.Duration = time.Since(start)
		case src.body == nil:
			n.Status = StatusDuplicate
			n.Duration = time.Since(start)
		}
	})
}

// parsed records how the document d ended: its status, the error about it
// (err), and what it yielded.
func (c *call) parsed(d *doc, start time.Time, st Status, err error) {
	if h := d.hooks.ended; h != nil {
		h(st, err)
	}
	errs := len(d.errs)
	if st == StatusFailed || st == StatusNotSitemap {
		errs = 0 // a document that failed records nothing but its error
	}
	if err != nil {
		errs++
	}
	c.s.updateDoc(d.node, func(n *Document) {
		n.Status, n.Err = st, err
		n.Format = formatOf(d.format)
		n.WireBytes, n.DecodedBytes = d.wire, d.decoded
		n.URLs, n.Errors = int(d.kept), n.Errors+errs
		n.Duration = time.Since(start)
	})
}

// leaveOut gives the sitemaps of list that are still queued status st, and
// err: the call is to read none of them.
func (c *call) leaveOut(list []child, st Status, err error) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	for _, ch := range list {
		if n := c.s.docs.at(ch.node); n != nil && n.Status == StatusQueued {
			n.Status, n.Err = st, err
		}
	}
}

// listedStatus returns what becomes of a sitemap the document lists, new to
// the call, as S.commit adds it to the tree: it is queued when it is among
// the document's children; otherwise it is left out by the follow rules,
// by the depth limit when the document is past it (deep), or by the fetch
// limit, which left it no room (addChild).
func (d *doc) listedStatus(deep bool) func(key, loc string) (Status, error) {
	return func(key, loc string) (Status, error) {
		switch {
		case !d.follows(loc):
			return StatusNotFollowed, nil
		case deep:
			return StatusLimited, errDepthLimit(d.c.cfg.maxDepth)
		case d.childKeys[key]:
			return StatusQueued, nil
		}
		return StatusLimited, errSitemapsLimit(d.c.cfg.maxSitemaps)
	}
}
