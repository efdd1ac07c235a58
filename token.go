package sitemap

import (
	"errors"
	"io"

	"github.com/gositemap/sitemap/internal/xmlscan"
)

// This file is the seam between the XML parse stage and the scanner of
// internal/xmlscan that feeds it. The parse stage sees only tokens:
// elements named by namespace URI and local name, and character data as
// bytes.

// The scanner's tokens, under the name the parse stage reads them by.
type xmlToken = xmlscan.Token

// The kinds of tokens.
const (
	tokStart = xmlscan.Start
	tokEnd   = xmlscan.End
	tokText  = xmlscan.Text
)

// errTooDeep is the cause of the *ParseError of a document whose elements
// nest deeper than the scanner allows.
var errTooDeep = xmlscan.ErrTooDeep

// tokenizer reads a document a token at a time. Next returns io.EOF at the
// clean end of the input; any other error ends the document (see
// xmlscan.New for what strict and tolerant mode read).
type tokenizer interface {
	Next() (*xmlToken, error)
}

// isEOF reports whether err is the clean end of the input.
func isEOF(err error) bool { return errors.Is(err, io.EOF) }

// classified gives the elements of the tokens of a tokenizer other than the
// scanner the classes of xmlClasses, which the scanner gives them itself.
type classified struct{ t tokenizer }

func (c classified) Next() (*xmlToken, error) {
	tok, err := c.t.Next()
	if err == nil && tok.Kind != tokText {
		tok.Class = xmlClasses[string(tok.Name.Local)]
	}
	return tok, err
}
