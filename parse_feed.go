package sitemap

import "bytes"

// This file is the part of the XML parse stage that reads feeds: the
// elements of an RSS 2.0 item, an RSS 1.0 (RDF) item and an Atom entry. The
// token loop of parse_xml.go calls the reader of the document's format for
// an element that starts inside an entry of a feed.

// The namespace of Atom 0.3, and the IRI form of the rel value alternate.
const (
	nsAtom03            = "http://purl.org/atom/ns#"
	atomRelAlternateIRI = "http://www.iana.org/assignments/relation/alternate"
)

// rssChild handles a <link> or a <pubDate> of an RSS 2.0 item, by the class
// of its local name.
func (p *xmlParser) rssChild(tok *xmlToken) {
	// Only the item's own elements count: a <link> or a <pubDate> nested
	// deeper (in a <source>, say) is not the item's.
	if p.depth != p.entryDepth+1 || !p.inRootNS(tok) {
		return
	}
	if tok.Class == clsLink {
		p.collect(&p.e.loc)
	} else {
		p.feedDate("pubDate", true)
	}
}

// rdfChild handles an element of an RSS 1.0 item.
func (p *xmlParser) rdfChild(tok *xmlToken) {
	if p.depth != p.entryDepth+1 {
		return
	}
	switch {
	case string(tok.Name.Local) == "link" && string(tok.Name.Space) != nsRDF:
		p.collect(&p.e.loc)
	case string(tok.Name.Local) == "date" && string(tok.Name.Space) == nsDC:
		p.feedDate("dc:date", false)
	}
}

// atomChild handles an element of an Atom entry.
func (p *xmlParser) atomChild(tok *xmlToken) {
	// Only the entry's own elements count: the <link> and the <updated> of
	// an entry's <source> are those of another feed.
	if p.depth != p.entryDepth+1 || !p.inRootNS(tok) {
		return
	}
	switch {
	case tok.Class == clsLink:
		if !p.atomLinked {
			p.atomLink(tok)
		}
	case tok.Class == clsUpdated:
		p.feedDate("updated", false)
	case string(tok.Name.Local) == "modified":
		// The <updated> of Atom 0.3; Atom 1.0 has no such element.
		if string(p.rootNS) == nsAtom03 {
			p.feedDate("modified", false)
		}
	default:
		p.skipContent() // a title, a summary, an id
	}
}

// atomLink reads an Atom <link>: the first whose rel is alternate is the
// entry's.
func (p *xmlParser) atomLink(tok *xmlToken) {
	var rel, href []byte
	hasHref := false
	for _, a := range tok.Attrs {
		if len(a.Name.Space) != 0 {
			continue
		}
		switch string(a.Name.Local) {
		case "rel":
			rel = bytes.TrimSpace(a.Value)
		case "href":
			href, hasHref = a.Value, true
		}
	}
	// A rel that is empty is none (VALUE-9); the IANA IRI of alternate is
	// alternate itself (RFC 4287, 4.2.7.2).
	if len(rel) != 0 && string(rel) != "alternate" && string(rel) != atomRelAlternateIRI {
		return
	}
	// The first such link is the entry's, even without an href: the entry
	// then has no link and is skipped (ATOM-5).
	p.atomLinked = true
	if hasHref {
		p.e.loc.reset()
		p.e.loc.set = true
		p.e.loc.append(href)
	}
}

// feedDate collects the date of a feed entry from the element that starts,
// named name for the errors; the first date of the entry is the one kept.
func (p *xmlParser) feedDate(name string, rfc822 bool) {
	if !p.e.lastmod.set {
		p.e.dateName, p.e.dateRFC822 = name, rfc822
	}
	p.collect(&p.e.lastmod)
}
