package sitemap

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// This file is the seam between the XML parse stage and the tokenizer that
// feeds it. The parse stage sees only xmlToken values: elements named by
// namespace URI and local name, and character data as bytes. Two tokenizers
// stand behind the seam: stdTokenizer on encoding/xml, the reference, and
// the faster scanner of xmlscan.go.

// tokenKind tells what an xmlToken is.
type tokenKind uint8

const (
	tokStart tokenKind = iota + 1 // a start element, with its attributes
	tokEnd                        // an end element
	tokText                       // character data, CDATA sections included
)

// maxNesting bounds how deep elements may nest in a document. A sitemap
// needs five levels; the bound keeps a document of a million nested
// elements from holding a million stack entries.
const maxNesting = 256

// errTooDeep is the cause of the *ParseError of a document whose elements
// nest deeper than maxNesting.
var errTooDeep = fmt.Errorf("elements are nested more than %d levels deep", maxNesting)

// xmlName is the name of an element or an attribute: the namespace URI the
// prefix is bound to (empty when there is none) and the local name.
type xmlName struct {
	space, local []byte
}

// xmlAttr is one attribute of a start element, its value unescaped.
type xmlAttr struct {
	name  xmlName
	value []byte
}

// xmlToken is one token of a document. Its slices are valid only until the
// next call of next.
type xmlToken struct {
	kind  tokenKind
	name  xmlName   // tokStart, tokEnd
	attrs []xmlAttr // tokStart; namespace declarations are not among them
	text  []byte    // tokText: entities and character references replaced

	// forbidden tells, in tolerant mode, that the text or an attribute
	// value held a character reference to a code point XML forbids (U+0000,
	// a C0 control other than tab, LF and CR, a surrogate, U+FFFE, U+FFFF,
	// or one past U+10FFFF), which U+FFFD stands in for. Strict mode
	// rejects such a document instead.
	forbidden bool
}

// tokenizer reads a document a token at a time. next returns io.EOF at the
// clean end of the input; any other error ends the document. In strict mode
// the document must be well-formed; in tolerant mode a tokenizer reads past
// an unescaped &, an entity it does not know and a missing or mismatched end
// tag the way encoding/xml does with Strict off, HTML's entities known and
// no AutoClose list. Comments, processing
// instructions and directives (a DOCTYPE among them) are skipped, and no
// entity a DTD declares is ever expanded.
type tokenizer interface {
	next() (*xmlToken, error)
}

// stdTokenizer is the tokenizer on encoding/xml.
type stdTokenizer struct {
	d     *xml.Decoder
	tok   xmlToken
	depth int
}

// newStdTokenizer returns a tokenizer on encoding/xml reading r, which is
// already UTF-8 (decode.go transcodes before the tokenizer).
func newStdTokenizer(r io.Reader, strict bool) *stdTokenizer {
	d := xml.NewDecoder(r)
	d.Strict = strict
	if !strict {
		// No AutoClose list: HTML's would close a <link> (RSS, xhtml:link)
		// at once. A missing end tag is read past all the same, since
		// non-strict encoding/xml closes an element whose end tag does not
		// match.
		d.Entity = xml.HTMLEntity
	}
	// The content reaches the decoder transcoded, so whatever encoding the
	// declaration names, it is read as it is.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	return &stdTokenizer{d: d}
}

func (t *stdTokenizer) next() (*xmlToken, error) {
	for {
		tok, err := t.d.Token()
		if err != nil {
			return nil, err
		}
		// encoding/xml hands out strings; the copies cost allocations, which
		// is the price of the reference tokenizer.
		switch tok := tok.(type) {
		case xml.StartElement:
			t.depth++
			if t.depth > maxNesting {
				return nil, errTooDeep
			}
			t.tok = xmlToken{kind: tokStart, name: toName(tok.Name), attrs: t.tok.attrs[:0]}
			for _, a := range tok.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue
				}
				t.tok.attrs = append(t.tok.attrs, xmlAttr{toName(a.Name), []byte(a.Value)})
			}
			return &t.tok, nil
		case xml.EndElement:
			t.depth--
			t.tok = xmlToken{kind: tokEnd, name: toName(tok.Name), attrs: t.tok.attrs[:0]}
			return &t.tok, nil
		case xml.CharData:
			t.tok = xmlToken{kind: tokText, text: tok, attrs: t.tok.attrs[:0]}
			return &t.tok, nil
		}
		// Comments, processing instructions and directives are skipped.
	}
}

func toName(n xml.Name) xmlName { return xmlName{[]byte(n.Space), []byte(n.Local)} }

// isEOF reports whether err is the clean end of the input.
func isEOF(err error) bool { return errors.Is(err, io.EOF) }
