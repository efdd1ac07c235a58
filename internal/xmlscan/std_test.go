package xmlscan

import (
	"encoding/xml"
	"io"
)

// tokenizer reads a document a token at a time, as the parse stage of the
// sitemap package does: the scanner and the reference below both do.
type tokenizer interface {
	Next() (*Token, error)
}

// stdTokenizer is the reference tokenizer on encoding/xml, which the tests
// and the fuzz targets hold the scanner to. It lives in the tests only.
type stdTokenizer struct {
	d     *xml.Decoder
	tok   Token
	depth int
}

// newStdTokenizer returns a tokenizer on encoding/xml reading r, which is
// already UTF-8: strict, or tolerant with HTML's entities and no AutoClose
// list, as the scanner reads.
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

func (t *stdTokenizer) Next() (*Token, error) {
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
			if t.depth > MaxNesting {
				return nil, ErrTooDeep
			}
			t.tok = Token{Kind: Start, Name: toName(tok.Name), Attrs: t.tok.Attrs[:0]}
			for _, a := range tok.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue
				}
				t.tok.Attrs = append(t.tok.Attrs, Attr{toName(a.Name), []byte(a.Value)})
			}
			return &t.tok, nil
		case xml.EndElement:
			t.depth--
			t.tok = Token{Kind: End, Name: toName(tok.Name), Attrs: t.tok.Attrs[:0]}
			return &t.tok, nil
		case xml.CharData:
			t.tok = Token{Kind: Text, Text: tok, Attrs: t.tok.Attrs[:0]}
			return &t.tok, nil
		}
		// Comments, processing instructions and directives are skipped.
	}
}

func toName(n xml.Name) Name { return Name{[]byte(n.Space), []byte(n.Local)} }

// newScannerSize is newScanner with a buffer of size bytes to start with:
// tiny buffers cross every chunk boundary.
func newScannerSize(r io.Reader, strict bool, size int) *Scanner {
	return &Scanner{r: r, strict: strict, buf: make([]byte, max(size, 16), max(size, 16)+bufSlack), lines: 1}
}
