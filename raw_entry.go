package sitemap

import "bytes"

// This file is the raw entry: one entry of a document as a parse stage read
// it, its values as written, before translate.go checks them. The stages
// fill it (parse_xml.go, parse_feed.go, extensions.go, parse_text.go,
// robots.go) and hand it to their sink; its buffers are reused from one
// entry to the next.

// value is the raw text of one element or attribute of an entry.
type value struct {
	b   []byte
	set bool // the element or attribute was there
	cut bool // the text was longer than maxValueLength
}

func (v *value) reset() { v.b, v.set, v.cut = v.b[:0], false, false }

func (v *value) append(b []byte) {
	if room := maxValueLength - len(v.b); len(b) > room {
		b, v.cut = b[:max(room, 0)], true
	}
	v.b = append(v.b, b...)
}

// text returns the value without the white space around it.
func (v *value) text() []byte { return bytes.TrimSpace(v.b) }

// rawEntry is one entry of a document as it was read, before it is checked:
// a <url>, a <sitemap>, an RSS item, an Atom entry or a line of a text
// sitemap. Its buffers are reused from one entry to the next.
type rawEntry struct {
	sitemap    bool   // a <sitemap> of an index, not a page
	feed       bool   // an RSS item or an Atom entry, which may lack a link
	dateName   string // the element the date was read from, for errors
	dateRFC822 bool   // the date is an RSS <pubDate>
	loc        value  // <loc>, <link>, or the href of an Atom <link>
	lastmod    value  // <lastmod>, <pubDate>, <updated>
	changefreq value  // <changefreq>
	priority   value  // <priority>
	images     []rawImage
	videos     []rawVideo
	links      []rawLink
	news       rawNews
	hasNews    bool
	forbidden  bool // a character reference names a code point XML forbids

	// line and col are where the location starts in a document read by
	// line: the line from 1 and the byte of the line from 1, in the
	// document as the parse stage reads it (decompressed, after a byte
	// order mark). A robots.txt's entries carry them, a text sitemap's
	// when its hooks ask (docHooks.numberLines); 0 otherwise.
	line, col int
}

type rawImage struct {
	loc, title, caption, geoLocation, license value
}

type rawNews struct {
	name, language, publicationDate, title value
}

type rawVideo struct {
	thumbnailLoc, title, description, contentLoc, playerLoc      value
	duration, expirationDate, rating, viewCount, publicationDate value
	familyFriendly, requiresSubscription, live                   value
	restriction, restrictionRel, platform, platformRel           value
	uploader, uploaderInfo                                       value
	tags                                                         []value
	nTags                                                        int
}

type rawLink struct {
	rel, hreflang, href value
}

func (e *rawEntry) reset(sitemap, feed bool) {
	e.sitemap, e.feed, e.dateName, e.dateRFC822 = sitemap, feed, "lastmod", false
	e.loc.reset()
	e.lastmod.reset()
	e.changefreq.reset()
	e.priority.reset()
	e.images = e.images[:0]
	e.videos = e.videos[:0]
	e.links = e.links[:0]
	e.hasNews = false
	e.forbidden = false
}

// grow extends s by one element, reusing the buffers of an element that a
// previous entry left behind.
func grow[T any](s []T) ([]T, *T) {
	if len(s) < cap(s) {
		s = s[:len(s)+1]
	} else {
		var zero T
		s = append(s, zero)
	}
	return s, &s[len(s)-1]
}

func (im *rawImage) reset() {
	im.loc.reset()
	im.title.reset()
	im.caption.reset()
	im.geoLocation.reset()
	im.license.reset()
}

func (n *rawNews) reset() {
	n.name.reset()
	n.language.reset()
	n.publicationDate.reset()
	n.title.reset()
}

func (v *rawVideo) reset() {
	for _, f := range []*value{&v.thumbnailLoc, &v.title, &v.description, &v.contentLoc, &v.playerLoc,
		&v.duration, &v.expirationDate, &v.rating, &v.viewCount, &v.publicationDate,
		&v.familyFriendly, &v.requiresSubscription, &v.live,
		&v.restriction, &v.restrictionRel, &v.platform, &v.platformRel, &v.uploader, &v.uploaderInfo} {
		f.reset()
	}
	v.nTags = 0
}

func (l *rawLink) reset() { l.rel.reset(); l.hreflang.reset(); l.href.reset() }

// entrySink takes the entries of a document.
type entrySink interface {
	// root is called once the root element has told the format.
	root(f docFormat)
	// begin is called when an entry starts; false stops the document
	// there, unread.
	begin() bool
	// entry takes a complete entry; false stops the document.
	entry(e *rawEntry) bool
}

// field returns the value of a video that the text of the element local
// goes to, or nil for an element with attributes or none of the video's.
func (v *rawVideo) field(local []byte) *value {
	switch string(local) {
	case "thumbnail_loc":
		return &v.thumbnailLoc
	case "title":
		return &v.title
	case "description":
		return &v.description
	case "content_loc":
		return &v.contentLoc
	case "player_loc":
		return &v.playerLoc
	case "duration":
		return &v.duration
	case "expiration_date":
		return &v.expirationDate
	case "rating":
		return &v.rating
	case "view_count":
		return &v.viewCount
	case "publication_date":
		return &v.publicationDate
	case "family_friendly":
		return &v.familyFriendly
	case "requires_subscription":
		return &v.requiresSubscription
	case "live":
		return &v.live
	}
	return nil
}
