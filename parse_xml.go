package sitemap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"

	"github.com/gositemap/sitemap/internal/xmlscan"
)

// This file is the XML parse stage: one token loop for every XML format (a
// urlset, a sitemap index, RSS and Atom feeds) that hands one raw entry at a
// time to a sink. It knows nothing of HTTP, gzip, limits or results.

// The namespaces of the extensions.
const (
	nsImage = "http://www.google.com/schemas/sitemap-image/1.1"
	nsNews  = "http://www.google.com/schemas/sitemap-news/0.9"
	nsVideo = "http://www.google.com/schemas/sitemap-video/1.1"
	nsXHTML = "http://www.w3.org/1999/xhtml"
	nsDC    = "http://purl.org/dc/elements/1.1/"
	nsRDF   = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
)

// maxValueLength bounds the text kept of one value. No value of a sitemap
// comes near it (a location has at most 2,048 characters); a value that is
// longer is marked as cut, so that the parse of a hostile document never
// holds more than this much of one value.
const maxValueLength = 64 << 10

// attrsRead are the attributes the parse stage reads, by the local names of
// their elements: the scanner drops every other attribute as it reads it,
// so that one nobody reads costs nothing, and cuts those it keeps as value
// cuts text.
var attrsRead = &xmlscan.AttrTable{
	Elems: map[string][]string{
		"link":        {"rel", "hreflang", "href"}, // xhtml:link, and Atom's link
		"restriction": {"relationship"},            // video:restriction
		"platform":    {"relationship"},            // video:platform
		"uploader":    {"info"},                    // video:uploader
	},
	Keep: maxValueLength,
}

// The classes of the local names the parse stage tells apart: the scanner
// gives each start and end element the class of its local name (see
// xmlscan.Scanner.SetClasses), so that the parse stage switches on it
// rather than on the name's bytes.
const (
	clsOther uint8 = iota
	clsURL
	clsSitemap
	clsItem
	clsEntry
	clsLoc
	clsLastmod
	clsChangefreq
	clsPriority
	clsImage
	clsVideo
	clsNews
	clsLink
	clsTitle
	clsCaption
	clsGeoLocation
	clsLicense
	clsPubDate
	clsUpdated
)

// xmlClasses is the table of the classes, by local name.
var xmlClasses = map[string]uint8{
	"url": clsURL, "sitemap": clsSitemap, "item": clsItem, "entry": clsEntry,
	"loc": clsLoc, "lastmod": clsLastmod, "changefreq": clsChangefreq, "priority": clsPriority,
	"image": clsImage, "video": clsVideo, "news": clsNews, "link": clsLink,
	"title": clsTitle, "caption": clsCaption, "geo_location": clsGeoLocation, "license": clsLicense,
	"pubDate": clsPubDate, "updated": clsUpdated,
}

// docFormat is the kind of an XML document, told by its root element.
type docFormat uint8

const (
	formatUnknown docFormat = iota
	formatURLSet
	formatIndex
	formatRSS  // RSS 2.0 and 0.9x: <rss><channel><item>
	formatRDF  // RSS 1.0 and 0.90: <rdf:RDF><item>
	formatAtom // Atom 1.0 and 0.3: <feed><entry>
)

// What the parse stage reports of documents it cannot read.
var (
	errEmpty  = errors.New("document is empty")
	errNoRoot = errors.New("document has no root element")
	// errEntryCutOff ends a document whose entries before the cut are
	// kept, in tolerant mode (TOLERANT-13); errRootCutOff, one cut
	// between its entries, before the end tag of its root element. Both
	// wrap io.ErrUnexpectedEOF, so that errors.Is tells a cut document: a
	// real document ends with the end tag of its root, and one that lacks
	// it was cut, wherever the cut fell.
	errEntryCutOff error = &causedError{"document ends inside an entry", io.ErrUnexpectedEOF}
	errRootCutOff  error = &causedError{"document ends before the end tag of its root element", io.ErrUnexpectedEOF}
)

// partialError is the error of a document that tolerant mode stopped in at
// XML it cannot read past: the complete entries before it are kept, and err
// is reported after them.
type partialError = tagged[stoppedInPart]

type stoppedInPart struct{}

// notSitemapError is the cause of the *ParseError of an XML document whose
// root element is none that the package reads.
type notSitemapError = tagged[notSitemap]

type notSitemap struct{}

// errNotSitemap is the notSitemapError of a document whose root element is
// named root.
func errNotSitemap(root string) error {
	return &notSitemapError{err: fmt.Errorf("not a sitemap: root element <%s> is none of urlset, sitemapindex, rss, RDF or feed", root)}
}

// The parts of an entry that hold parts of their own.
type part uint8

const (
	partNone part = iota
	partImage
	partVideo
	partNews
	partPublication
)

// xmlParser is the state of the token loop over one document.
type xmlParser struct {
	t      tokenizer
	sc     *xmlscan.Scanner // t, when it is the scanner
	sink   entrySink
	strict bool

	format     docFormat
	entryClass uint8 // the class of the local name of the format's entries
	rootNS     []byte
	depth      int
	rootEnd    bool

	rootID uint64 // the binding rootNS comes from (see xmlscan.Token.NS), 0 for none
	// nsID and nsKind are the last binding nsKindOf looked up and its kind.
	nsID   uint64
	nsKind nsKind

	e          rawEntry
	entryDepth int // depth of the open entry; 0 when none is open
	part       part
	partDepth  int
	inPub      bool // inside <news:publication>
	pubDepth   int
	field      *value // the value the text goes to
	fieldDepth int
	discard    value
	atomLinked bool // the Atom entry has its link
	err        error

	h *xmlHooks // what the features attached to the call observe (hooks.go), never nil
}

// parseXML reads an XML document from t and hands its entries to sink,
// telling h what it reads.
func parseXML(t tokenizer, strict bool, sink entrySink, h *xmlHooks) error {
	if sc, ok := t.(*xmlscan.Scanner); ok {
		sc.SetClasses(xmlClasses)
	} else {
		t = classified{t}
	}
	p := &xmlParser{t: t, sink: sink, strict: strict, h: h}
	p.sc, _ = t.(*xmlscan.Scanner)
	if h.scanner != nil && p.sc != nil {
		defer h.scanner(p.sc)()
	}
	return p.run()
}

func (p *xmlParser) run() error {
	sc := p.sc
	for {
		// The scanner's Next is called directly, not through the
		// tokenizer's method: a call of an interface costs every token.
		var tok *xmlToken
		var err error
		if sc != nil {
			sc.SkipSpace(p.field == nil) // only a field reads text
			tok, err = sc.Next()
		} else {
			tok, err = p.t.Next()
		}
		if err != nil {
			return p.stop(err)
		}
		switch tok.Kind {
		case tokStart:
			p.depth++
			if !p.start(tok) {
				return p.err
			}
		case tokEnd:
			// The end of the field that reads text, the commonest end
			// tag of an entry, is handled here without a call.
			if p.field != nil && p.depth == p.fieldDepth {
				p.field = nil
			} else if !p.end(tok) {
				return nil
			}
			p.depth--
		case tokText:
			if p.field != nil {
				p.field.append(tok.Text)
			}
		}
		// A forbidden character reference costs the entry it stands in,
		// wherever in it (the entry's own tag included); outside an entry
		// it costs nothing.
		if tok.Forbidden && p.entryDepth > 0 {
			p.e.forbidden = true
		}
	}
}

// stop returns the error the document ends with, given the error err that
// ended its tokens: nil for one read whole, to its root's end tag. A
// document that ends before that end tag was cut, inside an entry or
// between two: tolerant mode keeps its complete entries and reports the
// cut (TOLERANT-13), strict mode rejects it with the scanner's account of
// it.
func (p *xmlParser) stop(err error) error {
	eof := isEOF(err)
	if p.format == formatUnknown {
		if eof {
			return errNoRoot
		}
		return err
	}
	// Lint hears of a cut from the document's error, as of any other.
	cut := eof || isTruncated(err)
	if cut {
		switch {
		case p.rootEnd && (eof || !p.strict):
			// What follows the root element (white space, a comment)
			// is no part of the document.
			return nil
		case p.strict && !eof:
			return err
		case p.entryDepth > 0:
			err = errEntryCutOff
		default:
			err = errRootCutOff
		}
	}
	var se *xml.SyntaxError
	if !p.strict && (cut || errors.As(err, &se) || err == errTooDeep) {
		// Of XML it cannot read past, a cut or any other, nesting too
		// deep among it, tolerant mode keeps the complete entries before,
		// leaves out the entry it breaks, and reports it (TOLERANT-13).
		return &partialError{err: err}
	}
	return err
}

// isTruncated reports whether err is the scanner's error of input that
// ends before the document does. It is a function of its own so that the
// target of errors.As, which escapes, is allocated only when it is called:
// a document read whole costs no allocation in stop.
func isTruncated(err error) bool {
	var te *xmlscan.TruncatedError
	return errors.As(err, &te)
}

// start handles a start element; false stops the document.
//
// It reads the fields of tok where it needs them rather than copying its
// name: the scanner has just written the token a word at a time, and a copy
// of the name in wider loads would wait for those stores to leave the core.
func (p *xmlParser) start(tok *xmlToken) bool {
	if p.format == formatUnknown {
		return p.rootStart(tok)
	}
	if p.rootEnd || p.field != nil {
		return true
	}
	if tok.Class == p.entryClass && p.isEntry(tok) {
		if p.entryDepth > 0 {
			// The entry before lacks its end tag: it ends here.
			if !p.sink.entry(&p.e) {
				return false
			}
		}
		if !p.sink.begin() {
			return false
		}
		if p.h.entryStart != nil {
			p.h.entryStart()
		}
		p.e.reset(p.format == formatIndex, p.format == formatRSS || p.format == formatRDF || p.format == formatAtom)
		p.entryDepth, p.part, p.inPub, p.field, p.atomLinked = p.depth, partNone, false, nil, false
		return true
	}
	if p.entryDepth == 0 {
		if p.h.rootChild != nil && p.depth == 2 {
			p.h.rootChild(tok.Name.Local, bytes.Equal(tok.Name.Space, p.rootNS), p.format)
		}
		return true
	}
	switch p.part {
	case partNone:
		// The elements of a sitemap go to sitemapChild, those of feeds to
		// the reader of their format (parse_feed.go). Of an RSS item only
		// the link and the date are read: its other elements (a title, a
		// description) are skipped here, by their class.
		switch p.format {
		case formatURLSet, formatIndex:
			p.sitemapChild(tok)
		case formatRSS:
			if tok.Class == clsLink || tok.Class == clsPubDate {
				p.rssChild(tok)
			} else {
				p.skipContent()
			}
		case formatRDF:
			p.rdfChild(tok)
		case formatAtom:
			p.atomChild(tok)
		}
	case partImage:
		p.imageChild(tok)
	case partVideo:
		p.videoChild(tok)
	case partNews, partPublication:
		p.newsChild(tok)
	}
	return true
}

// skipContent reads past the content and the end tag of the element just
// started, one the parse stage does not read, when the scanner can do so
// at once (see xmlscan.Scanner.SkipText): the text of an RSS item's title
// or description is then neither handed out nor looked at again. A hook
// that watches the scanner (lint) sees them all read.
func (p *xmlParser) skipContent() {
	if p.sc != nil && p.h.scanner == nil && p.sc.SkipText() {
		p.depth--
	}
}

// rootStart handles the root element, which tells the format; false stops
// the document.
func (p *xmlParser) rootStart(tok *xmlToken) bool {
	switch string(tok.Name.Local) {
	case "urlset":
		p.format, p.entryClass = formatURLSet, clsURL
	case "sitemapindex":
		p.format, p.entryClass = formatIndex, clsSitemap
	case "rss":
		p.format, p.entryClass = formatRSS, clsItem
	case "RDF":
		p.format, p.entryClass = formatRDF, clsItem
	case "feed":
		p.format, p.entryClass = formatAtom, clsEntry
	default:
		p.err = errNotSitemap(string(tok.Name.Local))
		return false
	}
	p.rootNS, p.rootID = append(p.rootNS[:0], tok.Name.Space...), tok.NS
	if p.h.root != nil {
		p.h.root(p.format, tok.Name.Space)
	}
	p.sink.root(p.format)
	return true
}

// isEntry reports whether tok, whose class is p.entryClass, starts an
// entry of the document's format.
func (p *xmlParser) isEntry(tok *xmlToken) bool {
	switch p.format {
	case formatURLSet:
		return tok.Class == clsURL && p.inRootNS(tok)
	case formatIndex:
		return tok.Class == clsSitemap && p.inRootNS(tok)
	case formatRSS:
		return tok.Class == clsItem && p.inRootNS(tok)
	case formatRDF:
		return tok.Class == clsItem && string(tok.Name.Space) != nsRDF
	case formatAtom:
		return tok.Class == clsEntry && p.inRootNS(tok)
	}
	return false
}

// inRootNS reports whether the element tok is in the namespace of the root
// element: at once when its URI comes from the same binding, or when
// neither has a namespace, as in most feeds.
func (p *xmlParser) inRootNS(tok *xmlToken) bool {
	if tok.NS != 0 && tok.NS == p.rootID || len(tok.Name.Space) == 0 && len(p.rootNS) == 0 {
		return true
	}
	return bytes.Equal(tok.Name.Space, p.rootNS)
}

// nsKindOf is nsOf of the namespace of tok, looked up once for the
// elements of one binding.
func (p *xmlParser) nsKindOf(tok *xmlToken) nsKind {
	if tok.NS != 0 && tok.NS == p.nsID {
		return p.nsKind
	}
	k := nsOf(tok.Name.Space)
	if tok.NS != 0 {
		p.nsID, p.nsKind = tok.NS, k
	}
	return k
}

// collect sends the text of the element that starts to v; a value that is
// there already keeps its first text.
func (p *xmlParser) collect(v *value) {
	if v.set {
		v = &p.discard
		v.reset()
	}
	v.set = true
	p.field, p.fieldDepth = v, p.depth
}

func (p *xmlParser) openPart(k part) {
	p.part, p.partDepth = k, p.depth
}

// sitemapChild handles an element of a <url> or a <sitemap>: the entry's own
// elements, and in a urlset the extensions that open a part.
func (p *xmlParser) sitemapChild(tok *xmlToken) {
	inRoot := p.inRootNS(tok)
	if p.h.child != nil {
		p.h.child(tok.Name.Local, p.depth-p.entryDepth, inRoot, p.format)
	}
	if inRoot {
		switch tok.Class {
		case clsLoc:
			p.collect(&p.e.loc)
		case clsLastmod:
			p.collect(&p.e.lastmod)
		case clsChangefreq:
			if p.format == formatURLSet {
				p.collect(&p.e.changefreq)
			}
		case clsPriority:
			if p.format == formatURLSet {
				p.collect(&p.e.priority)
			}
		}
		return
	}
	if p.format == formatIndex {
		return
	}
	switch p.nsKindOf(tok) {
	case nsKindImage:
		if tok.Class == clsImage {
			var im *rawImage
			p.e.images, im = grow(p.e.images)
			im.reset()
			p.openPart(partImage)
		}
	case nsKindVideo:
		if tok.Class == clsVideo {
			var v *rawVideo
			p.e.videos, v = grow(p.e.videos)
			v.reset()
			p.openPart(partVideo)
		}
	case nsKindNews:
		if tok.Class == clsNews && !p.e.hasNews {
			// The first <news:news> of an entry is the one kept.
			p.e.hasNews = true
			p.e.news.reset()
			p.openPart(partNews)
		}
	case nsKindXHTML:
		if tok.Class == clsLink {
			p.xhtmlLink(tok)
		}
	}
}

// xhtmlLink reads the attributes of an <xhtml:link> into a new alternate
// link of the entry.
func (p *xmlParser) xhtmlLink(tok *xmlToken) {
	var l *rawLink
	p.e.links, l = grow(p.e.links)
	l.reset()
	for _, a := range tok.Attrs {
		if len(a.Name.Space) != 0 {
			continue
		}
		switch string(a.Name.Local) {
		case "rel":
			setAttr(&l.rel, a.Value)
		case "hreflang":
			setAttr(&l.hreflang, a.Value)
		case "href":
			setAttr(&l.href, a.Value)
		}
	}
}

func setAttr(v *value, b []byte) {
	v.reset()
	v.set = true
	v.append(b)
}

func (p *xmlParser) imageChild(tok *xmlToken) {
	if p.nsKindOf(tok) != nsKindImage {
		return
	}
	im := &p.e.images[len(p.e.images)-1]
	switch tok.Class {
	case clsLoc:
		p.collect(&im.loc)
	case clsTitle:
		p.collect(&im.title)
	case clsCaption:
		p.collect(&im.caption)
	case clsGeoLocation:
		p.collect(&im.geoLocation)
	case clsLicense:
		p.collect(&im.license)
	}
}

func (p *xmlParser) newsChild(tok *xmlToken) {
	if p.nsKindOf(tok) != nsKindNews {
		return
	}
	n := &p.e.news
	switch string(tok.Name.Local) {
	case "publication":
		if !p.inPub {
			p.inPub, p.pubDepth = true, p.depth
		}
	case "name":
		p.collect(&n.name)
	case "language":
		p.collect(&n.language)
	case "publication_date":
		p.collect(&n.publicationDate)
	case "title":
		p.collect(&n.title)
	}
}

func (p *xmlParser) videoChild(tok *xmlToken) {
	if p.nsKindOf(tok) != nsKindVideo {
		return
	}
	v := &p.e.videos[len(p.e.videos)-1]
	if f := v.field(tok.Name.Local); f != nil {
		p.collect(f)
		return
	}
	switch string(tok.Name.Local) {
	case "restriction":
		if !v.restriction.set {
			attrOf(tok, "relationship", &v.restrictionRel)
		}
		p.collect(&v.restriction)
	case "platform":
		if !v.platform.set {
			attrOf(tok, "relationship", &v.platformRel)
		}
		p.collect(&v.platform)
	case "uploader":
		if !v.uploader.set {
			attrOf(tok, "info", &v.uploaderInfo)
		}
		p.collect(&v.uploader)
	case "tag":
		var t *value
		v.tags, t = grow(v.tags[:v.nTags])
		v.nTags = len(v.tags)
		t.reset()
		p.collect(t)
	}
}

// attrOf sets dst to the value of the attribute local, without a namespace,
// of tok, when tok has it.
func attrOf(tok *xmlToken, local string, dst *value) {
	for _, a := range tok.Attrs {
		if len(a.Name.Space) == 0 && string(a.Name.Local) == local {
			setAttr(dst, a.Value)
			return
		}
	}
}

// end handles an end element; false stops the document.
func (p *xmlParser) end(tok *xmlToken) bool {
	d := p.depth
	switch {
	case p.field != nil && d == p.fieldDepth:
		p.field = nil
	case p.inPub && d == p.pubDepth:
		p.inPub = false
	case p.part != partNone && d == p.partDepth:
		p.part = partNone
	case p.entryDepth > 0 && d <= p.entryDepth:
		// d < entryDepth when the end tag of the entry is missing and an
		// enclosing element ends: the root, it may be.
		p.entryDepth, p.part, p.inPub, p.field = 0, partNone, false, nil
		p.rootEnd = d == 1
		return p.sink.entry(&p.e)
	case d == 1:
		p.rootEnd = true
	}
	return true
}

// nsKind is a namespace the parser knows.
type nsKind uint8

const (
	nsKindOther nsKind = iota
	nsKindImage
	nsKindNews
	nsKindVideo
	nsKindXHTML
)

// nsOf tells which extension a namespace URI is. Besides the exact URIs it
// knows the variants seen on the web (https, a trailing slash) and, for a
// document that uses a prefix it does not declare, the customary prefix.
func nsOf(space []byte) nsKind {
	switch string(space) {
	case nsImage, "image":
		return nsKindImage
	case nsNews, "news":
		return nsKindNews
	case nsVideo, "video":
		return nsKindVideo
	case nsXHTML, "xhtml":
		return nsKindXHTML
	case "":
		return nsKindOther
	}
	s := bytes.TrimSuffix(space, []byte("/"))
	switch {
	case bytes.HasSuffix(s, []byte("google.com/schemas/sitemap-image/1.1")):
		return nsKindImage
	case bytes.HasSuffix(s, []byte("google.com/schemas/sitemap-news/0.9")):
		return nsKindNews
	case bytes.HasSuffix(s, []byte("google.com/schemas/sitemap-video/1.1")):
		return nsKindVideo
	case bytes.HasSuffix(s, []byte("www.w3.org/1999/xhtml")):
		return nsKindXHTML
	}
	return nsKindOther
}
