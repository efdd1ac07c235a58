// Package xmlscan is a fast XML tokenizer that reads a document as
// encoding/xml's Decoder.Token does, quirks included, with the caps that a
// reader of hostile input needs. It reads the document into one reusable
// buffer and hands out slices of it, so that a token costs no allocation
// once the buffer has grown to the document's shape.
//
// It knows nothing of what its caller reads: whatever the caller needs of
// it beyond the tokens (which attributes to keep, say) comes in through a
// table the caller hands it (see AttrTable).
package xmlscan

import "fmt"

// Kind tells what a Token is.
type Kind uint8

// The kinds of tokens.
const (
	Start Kind = iota + 1 // a start element, with its attributes
	End                   // an end element
	Text                  // character data, CDATA sections included
)

// MaxNesting bounds how deep elements may nest in a document. A sitemap
// needs five levels; the bound keeps a document of a million nested
// elements from holding a million stack entries.
const MaxNesting = 256

// ErrTooDeep is the error of a document whose elements nest deeper than
// MaxNesting.
var ErrTooDeep = fmt.Errorf("elements are nested more than %d levels deep", MaxNesting)

// Name is the name of an element or an attribute: the namespace URI the
// prefix is bound to (empty when there is none) and the local name.
type Name struct {
	Space, Local []byte
}

// Attr is one attribute of a start element, its value unescaped.
type Attr struct {
	Name  Name
	Value []byte
}

// Token is one token of a document. Its slices are valid only until the
// next call of Scanner.Next.
type Token struct {
	Kind  Kind
	Name  Name   // Start, End
	Attrs []Attr // Start; namespace declarations are not among them
	Text  []byte // Text: entities and character references replaced

	// Forbidden tells, in tolerant mode, that the text or an attribute
	// value held a character reference to a code point XML forbids (U+0000,
	// a C0 control other than tab, LF and CR, a surrogate, U+FFFE, U+FFFF,
	// or one past U+10FFFF), which U+FFFD stands in for. Strict mode
	// rejects such a document instead.
	Forbidden bool

	// Class is the class of a start or end element's local name in the
	// table of Scanner.SetClasses, 0 when it has none.
	Class uint8
	// NS tells, for a start or end element, which namespace binding its
	// URI comes from: every declaration of a document gets its own id,
	// from 1 up, so two elements with the same NS other than 0 have the
	// same Name.Space, which needs no comparing. Elements with different
	// ids may still have the same URI (declared twice); 0 is an element
	// with no binding (no namespace, an unbound prefix, the xml prefix)
	// or an end element of tolerant mode closing another name.
	NS uint64
}
