package sitemap

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is lint's checks of what the sitemaps schema (sitemap.xsd of
// sitemaps.org) rejects and tolerant reading gets past: attributes on its
// elements, a <loc> shorter than its type allows, and a <lastmod> in a W3C
// form that neither xsd:date nor xsd:dateTime reads. The order of the
// elements of an entry, and an element given twice, are lintDoc.child's.

// minLocLength is the least length of the schema's type of <loc> (tLoc),
// in characters.
const minLocLength = 12

// attributes reports the attributes of the element of the sitemaps
// namespace just read, named name, that the schema does not allow: it
// allows none, beyond namespace declarations and those of XML Schema's
// own namespace (xsi:schemaLocation). The scanner drops them, since the
// parse stage reads none, and keeps their names for lint.
func (ld *lintDoc) attributes(name string) {
	if ld.sc == nil || !ld.schema {
		return
	}
	for _, a := range ld.sc.DroppedAttrs() {
		if string(a.Space) == nsXSI || ld.l.omit(CodeAttributeUnknown) {
			continue
		}
		line, col := ld.pos()
		attr := string(a.Local)
		switch {
		case bytes.IndexByte(a.Space, ':') >= 0:
			attr = "{" + string(a.Space) + "}" + attr
		case len(a.Space) > 0:
			// A prefix no declaration binds, as the scanner leaves it.
			attr = string(a.Space) + ":" + attr + " (its prefix is not declared)"
		}
		ld.report(CodeAttributeUnknown, line, col, "", fmt.Sprintf("the attribute %s is not allowed on <%s> by the sitemaps schema", attr, name))
	}
}

// locTooShort reports a <loc> of a urlset or an index, written raw, that
// is shorter than the schema allows. Tolerant reading may still resolve
// it: only its length is looked at here.
func (ld *lintDoc) locTooShort(raw string) {
	if len(raw) >= utf8.UTFMax*minLocLength {
		return
	}
	if n := utf8.RuneCountInString(raw); n < minLocLength {
		if _, err := urlnorm.Loc(raw, ld.d.base, true); err != nil {
			return // what is wrong with it is another rule's
		}
		ld.entryFinding(CodeLocTooShort, raw, "the <loc> has %d characters; the sitemaps schema asks for %d at least", n, minLocLength)
	}
}

// lastmodNotXSD reports a <lastmod> of a urlset or an index, written raw,
// that W3C Datetime reads (the caller has read it) but the schema does
// not: its type is the union of xsd:date and xsd:dateTime.
func (ld *lintDoc) lastmodNotXSD(raw []byte, loc string) {
	if why := xsdDate(raw); why != "" {
		ld.entryFinding(CodeLastmodNotXSD, loc, "<lastmod> %s is W3C Datetime, but the schema's xsd:date and xsd:dateTime reject it: %s", raw, why)
	}
}

// xsdDate tells what keeps b, a date ParseW3C reads (so of a four-digit
// year, a valid calendar day and clock), from being an xsd:date
// (YYYY-MM-DD) or an xsd:dateTime (YYYY-MM-DDThh:mm:ss, a fraction, a zone
// of Z or ±hh:mm up to 14:00 perhaps): "" when nothing does.
func xsdDate(b []byte) string {
	switch {
	case len(b) < 10:
		return "a year or a month alone, with no day"
	case len(b) == 10:
		return ""
	case b[10] != 'T':
		return "a lower-case t before the time"
	case len(b) < 19 || b[16] != ':':
		return "a time without seconds"
	}
	rest := b[19:]
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
			i++
		}
		rest = rest[i:]
	}
	switch {
	case len(rest) == 0 || len(rest) == 1 && rest[0] == 'Z':
		return ""
	case len(rest) == 1:
		return "a lower-case z for the zone"
	case len(rest) != 6 || rest[3] != ':':
		return "an offset not written ±hh:mm"
	case string(rest[1:]) > "14:00":
		return "an offset beyond ±14:00"
	}
	return ""
}
