package xmlscan

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file is the scanner. It reads the
// document into one reusable buffer, finds the end of each token with
// bytes.IndexByte, and hands out slices of that buffer, so a token costs no
// allocation once the buffer, the attribute slice and the element stack have
// grown to the document's shape.
//
// Its tokens are those of encoding/xml, quirks included: encoding/xml is the
// reference, so wherever encoding/xml (Decoder.Token, with Strict on, or off
// with HTMLEntity and no AutoClose list) departs from the XML specification, the
// scanner departs the same way. The comments below name the function of
// encoding/xml/xml.go whose behaviour each piece copies.

// scanBufSize is the size the scanner's buffer starts at. The buffer grows
// only while a single tag, comment, processing instruction or directive does
// not fit in it; character data is handed out in chunks instead.
const scanBufSize = 64 << 10

// The caps on what the scanner holds of one token or keeps in scope. What
// it skips (a comment, a processing instruction, a directive, an attribute
// its caller does not read) streams through its buffer at any length; what
// it must hold whole is capped here, and a document that goes past a cap is
// a syntax error that names it. encoding/xml has none of these caps; no
// sitemap, feed or extension comes within a hundred times of any of them.
const (
	// maxNameLength bounds an element, attribute or target name, which is
	// held whole while it is read and kept while its element is open.
	maxNameLength = 4 << 10
	// maxNSURILength bounds the URI a namespace declaration binds, which
	// stays in scope as long as its element is open.
	maxNSURILength = 4 << 10
	// maxNSDecls bounds the namespace declarations of one element. A
	// sitemap's root declares a dozen at most.
	maxNSDecls = 64
	// maxNSBindings bounds the namespace bindings in scope at once, so
	// that with the two caps above the bindings never hold more than about
	// 2 MiB, however deep the elements that make them nest.
	maxNSBindings = 256
	// maxRefLength bounds a character or entity reference the scanner
	// waits for whole: the longest HTML entity name has 31 bytes. A longer
	// one is read as what is not a reference (an error in strict mode).
	maxRefLength = 1 << 10
	// maxXMLDeclLength bounds the XML declaration, <?xml ...?>, which is
	// held whole so that its version can be read.
	maxXMLDeclLength = 4 << 10
	// maxKeptAttrs bounds the attributes kept of one element when the
	// caller says which it reads (see AttrTable); namespace declarations
	// are counted by maxNSDecls instead.
	maxKeptAttrs = 32
)

// AttrTable tells the scanner which attributes its caller reads, so that
// the others cost nothing however long they are: Elems maps the local name
// of an element to the local names of the attributes read on it, whatever
// their prefixes. A value kept is cut to Keep+1 bytes, so that the caller
// can tell that it was longer than Keep. Namespace declarations are always
// read. A nil *AttrTable keeps every attribute whole, as encoding/xml does.
type AttrTable struct {
	Elems map[string][]string
	Keep  int
}

// wants reports whether the attribute local of the element elem is read.
func (a *AttrTable) wants(elem, local []byte) bool {
	for _, n := range a.Elems[string(elem)] {
		if n == string(local) {
			return true
		}
	}
	return false
}

// errNeedMore tells a scanning function that the token runs past the bytes
// read so far.
var errNeedMore = errors.New("xml scanner: need more input")

var (
	xmlnsBytes = []byte("xmlns")
	xmlBytes   = []byte("xml")
	xmlURLb    = []byte("http://www.w3.org/XML/1998/namespace")
)

// rawKind is what rawToken read.
type rawKind uint8

const (
	rawStart rawKind = iota + 1
	rawEnd
	rawText
	rawSkip // a comment, a processing instruction or a directive
)

// textMode tells decode which kind of text it unescapes.
type textMode uint8

const (
	modeText  textMode = iota // character data: references, \r, and no "]]>"
	modeAttr                  // a quoted attribute value: references and \r
	modeCDATA                 // a CDATA section: \r only
)

// scanEntry is one entry of the scanner's stack, which mirrors the stack of
// encoding/xml: an open element, or a namespace binding made by the element
// above it. Its bytes are arena[off:end], split at mid.
type scanEntry struct {
	binding  bool // a binding prefix=arena[off:mid] URI=arena[mid:end]; else an element prefix:local
	off, mid int
	end      int
	prev     int // a binding: the index in stk of the binding of the same prefix it hides, or -1
	// space is the namespace URI of an element as translated when it
	// started. Its end element translates the same: the bindings below it
	// do not change while it is open.
	space []byte
}

// Scanner is the tokenizer; see New.
type Scanner struct {
	r        io.Reader
	strict   bool
	buf      []byte
	pos, end int   // the unread bytes are buf[pos:end]
	rerr     error // the error of the last read: no more bytes come after buf[:end]
	err      error // the error next returned; it ends the document
	lines    int   // 1 + the number of '\n' read so far

	tok     Token  // the token being read
	quoted  []bool // quoted[i]: tok.attrs[i].value is still raw, between quotes
	inCDATA bool   // the next bytes continue a CDATA section
	longRef bool   // tolerant mode: the text read ends in a reference longer than maxRefLength (see inLongRef)

	stk   []scanEntry
	binds []int  // the indexes in stk of the bindings, innermost last
	arena []byte // the names and URIs of stk
	depth int

	// ns is the innermost binding of each prefix in scope (or -1), made
	// once more than nsLinear bindings are, so that a name is translated
	// in constant time however many bindings are in scope.
	ns map[string]*nsSlot

	keep     *AttrTable // the attributes read; nil for all
	endName  []byte     // the name of a long end tag (see endTagSpace)
	tagArena []byte     // the names and values of a long start tag (see longStart)
	tagParts []tagPart

	needClose bool   // the next raw token is the end element toClose
	endOfTop  bool   // the raw end element read names the innermost open element
	toClose   []byte // prefix + local of that end element
	toCloseAt int    // where the local name starts in toClose

	forbidden bool // tolerant mode: decode read a reference to a code point XML forbids
}

// nsSlot is the innermost binding of one prefix: an index in stk.
type nsSlot struct{ top int }

// tagPart is an attribute of a long start tag: prefix tagArena[off:mid],
// local name [mid:val], value [val:end].
type tagPart struct{ off, mid, val, end int }

// scanBuffers holds the buffers of scanners that are done with them (see
// Release), at their first size, for the scanners of the next documents: a
// call of many sitemaps then allocates a few buffers, not one each.
var scanBuffers = sync.Pool{New: func() any { return new([scanBufSize]byte) }}

// New returns a scanner reading r, which is already UTF-8, strict or
// tolerant, that keeps the attributes keep names (every attribute whole
// when keep is nil). In strict mode the document must be well-formed; in
// tolerant mode the scanner reads past an unescaped &, an entity it does
// not know and a missing or mismatched end tag the way encoding/xml does
// with Strict off, HTML's entities known and no AutoClose list. Comments,
// processing instructions and directives (a DOCTYPE among them) are
// skipped, and no entity a DTD declares is ever expanded.
func New(r io.Reader, strict bool, keep *AttrTable) *Scanner {
	t := newScanner(r, strict)
	t.keep = keep
	return t
}

// newScanner is New keeping every attribute.
func newScanner(r io.Reader, strict bool) *Scanner {
	return &Scanner{r: r, strict: strict, buf: scanBuffers.Get().(*[scanBufSize]byte)[:], lines: 1}
}

// Release gives the scanner's buffer back to scanBuffers, unless a long tag
// made it grow: neither the scanner nor a token it handed out may be used
// afterwards.
func (t *Scanner) Release() {
	if cap(t.buf) == scanBufSize {
		scanBuffers.Put((*[scanBufSize]byte)(t.buf[:scanBufSize]))
	}
	t.buf, t.tok = nil, Token{}
}

// Next returns the next token of the document, io.EOF at its clean end;
// any other error ends the document. After an error it returns the same
// error.
func (t *Scanner) Next() (*Token, error) {
	if t.err != nil {
		return nil, t.err
	}
	tok, err := t.token()
	if err != nil {
		t.err = err
		return nil, err
	}
	return tok, nil
}

// token is Decoder.Token: it reads a raw token, resolves namespaces and
// matches end elements to start elements. Like the sitemap package's reading of encoding/xml it has no
// AutoClose list.
func (t *Scanner) token() (*Token, error) {
	for {
		kind, err := t.rawToken()
		if err != nil {
			if err == io.EOF && len(t.stk) > 0 {
				return nil, t.truncated("unexpected EOF")
			}
			return nil, err
		}
		switch kind {
		case rawStart:
			return t.startElement()
		case rawEnd:
			if t.endOfTop {
				t.endOfTop = false
				return t.popTop(&t.tok), nil
			}
			return t.popElement(&t.tok, t.tok.Name.Space, t.tok.Name.Local)
		case rawText:
			return &t.tok, nil
		}
	}
}

// startElement is the StartElement case of Decoder.Token: the namespace
// declarations among the attributes apply to the element's own name and
// attributes.
func (t *Scanner) startElement() (*Token, error) {
	decls := 0
	for _, a := range t.tok.Attrs {
		var prefix []byte
		switch {
		case bytes.Equal(a.Name.Space, xmlnsBytes):
			prefix = a.Name.Local
		case len(a.Name.Space) == 0 && bytes.Equal(a.Name.Local, xmlnsBytes):
		default:
			continue
		}
		if err := t.checkDecl(&decls, len(t.binds), a.Value); err != nil {
			return nil, err
		}
		t.push(true, prefix, a.Value)
	}
	t.push(false, t.tok.Name.Space, t.tok.Name.Local)
	t.depth++
	if t.depth > MaxNesting {
		return nil, ErrTooDeep
	}
	// Translated from the arena's copy, the space outlives the buffer.
	e := &t.stk[len(t.stk)-1]
	e.space = t.translate(t.arena[e.off:e.mid], t.tok.Name.Local, true)
	t.tok.Name.Space = e.space
	attrs := t.tok.Attrs[:0]
	for _, a := range t.tok.Attrs {
		a.Name.Space = t.translate(a.Name.Space, a.Name.Local, false)
		// encoding/xml drops what looks like a declaration once translated.
		if bytes.Equal(a.Name.Space, xmlnsBytes) || len(a.Name.Space) == 0 && bytes.Equal(a.Name.Local, xmlnsBytes) {
			continue
		}
		attrs = append(attrs, a)
	}
	t.tok.Attrs = attrs
	return &t.tok, nil
}

// checkDecl counts one more namespace declaration of an element, binding
// uri with n bindings in scope, against the caps.
func (t *Scanner) checkDecl(decls *int, n int, uri []byte) error {
	switch *decls++; {
	case *decls > maxNSDecls:
		return t.syntaxError(fmt.Sprintf("element declares more than %d namespaces", maxNSDecls), t.pos)
	case n >= maxNSBindings:
		return t.syntaxError(fmt.Sprintf("more than %d namespace bindings in scope", maxNSBindings), t.pos)
	case len(uri) > maxNSURILength:
		return t.syntaxError(fmt.Sprintf("namespace URI longer than %d bytes", maxNSURILength), t.pos)
	}
	return nil
}

// push records an open element prefix:local, or a binding of prefix to the
// URI value.
func (t *Scanner) push(binding bool, a, b []byte) {
	n := len(t.stk)
	if n < cap(t.stk) {
		t.stk = t.stk[:n+1]
	} else {
		t.stk = append(t.stk, scanEntry{})
	}
	e := &t.stk[n]
	e.binding, e.space = binding, nil
	e.off = len(t.arena)
	t.arena = append(t.arena, a...)
	e.mid = len(t.arena)
	t.arena = append(t.arena, b...)
	e.end = len(t.arena)
	if binding {
		t.binds = append(t.binds, n)
		switch {
		case t.ns != nil:
			t.bind(n)
		case len(t.binds) > nsLinear:
			t.ns = make(map[string]*nsSlot)
			for _, i := range t.binds {
				t.bind(i)
			}
		}
	}
}

// nsLinear is how many bindings translate looks through one by one, as in
// nearly every document, which is quicker than hashing; past it t.ns is
// made, and kept from then on.
const nsLinear = 8

// bind makes the binding stk[i] the innermost of its prefix in t.ns.
func (t *Scanner) bind(i int) {
	e := &t.stk[i]
	p := t.arena[e.off:e.mid]
	s := t.ns[string(p)]
	if s == nil {
		if len(t.ns) >= 4*maxNSBindings {
			// The slots of prefixes no longer bound stay for the next
			// declaration of the same prefix, until there are this many.
			for k, s := range t.ns {
				if s.top < 0 {
					delete(t.ns, k)
				}
			}
		}
		s = &nsSlot{top: -1}
		t.ns[string(p)] = s
	}
	e.prev, s.top = s.top, i
}

// popElement is Decoder.popElement: it closes the innermost element with the
// end element prefix:local, and puts the end element in tok.
func (t *Scanner) popElement(tok *Token, prefix, local []byte) (*Token, error) {
	n := len(t.stk)
	if n == 0 || t.stk[n-1].binding {
		return nil, t.syntaxError("unexpected end element </"+string(local)+">", t.pos)
	}
	s := t.pop()
	sp, sl := t.arena[s.off:s.mid], t.arena[s.mid:s.end]
	if !bytes.Equal(sl, local) {
		if !t.strict {
			// encoding/xml returns the open element's name untranslated, ends
			// the end element it read next, and leaves the namespace
			// bindings of the element it closed on its stack.
			t.needClose = true
			t.toClose = append(append(t.toClose[:0], prefix...), local...)
			t.toCloseAt = len(prefix)
			tok.set(End, sp, sl, nil)
			return tok, nil
		}
		return nil, t.syntaxError("element <"+string(sl)+"> closed by </"+string(local)+">", t.pos)
	}
	if !bytes.Equal(sp, prefix) {
		ns := string(prefix)
		if ns == "" {
			ns = `""`
		}
		return nil, t.syntaxError("element <"+string(sl)+"> in space "+string(sp)+
			" closed by </"+string(local)+"> in space "+ns, t.pos)
	}
	t.popBindings()
	tok.set(End, s.space, local, nil)
	return tok, nil
}

// popTop is popElement for an end element that endTag found to name the
// innermost open element, as nearly every end element does: there is
// nothing to check.
func (t *Scanner) popTop(tok *Token) *Token {
	s := t.pop()
	t.popBindings()
	tok.set(End, s.space, tok.Name.Local, nil)
	return tok
}

// pop takes the innermost open element off the stack. The popped entry and
// its bytes stay in their arrays until the next push, which comes after the
// caller is done with the token.
func (t *Scanner) pop() *scanEntry {
	s := &t.stk[len(t.stk)-1]
	t.stk = t.stk[:len(t.stk)-1]
	t.depth--
	t.arena = t.arena[:s.off]
	return s
}

// popBindings drops the namespace bindings of the element just closed.
func (t *Scanner) popBindings() {
	for len(t.stk) > 0 && t.stk[len(t.stk)-1].binding {
		e := &t.stk[len(t.stk)-1]
		if t.ns != nil {
			t.ns[string(t.arena[e.off:e.mid])].top = e.prev
		}
		t.arena = t.arena[:e.off]
		t.stk = t.stk[:len(t.stk)-1]
		t.binds = t.binds[:len(t.binds)-1]
	}
}

// translate is Decoder.translate: the namespace URI of the name prefix:local.
// The default namespace applies to elements only; an unbound prefix stands
// for itself.
func (t *Scanner) translate(prefix, local []byte, element bool) []byte {
	switch {
	case bytes.Equal(prefix, xmlnsBytes):
		return prefix
	case len(prefix) == 0 && !element:
		return prefix
	case bytes.Equal(prefix, xmlBytes):
		return xmlURLb
	case len(prefix) == 0 && bytes.Equal(local, xmlnsBytes):
		return prefix
	}
	if t.ns == nil {
		for i := len(t.binds) - 1; i >= 0; i-- {
			e := &t.stk[t.binds[i]]
			if string(t.arena[e.off:e.mid]) == string(prefix) {
				return t.arena[e.mid:e.end]
			}
		}
		return prefix
	}
	if s := t.ns[string(prefix)]; s != nil && s.top >= 0 {
		e := &t.stk[s.top]
		return t.arena[e.mid:e.end]
	}
	return prefix
}

// set makes tok a token with no attributes, field by field: assigning a
// composite literal to a token costs a copy through the stack.
func (tok *Token) set(kind Kind, space, local, text []byte) {
	tok.Kind = kind
	tok.Name.Space = space
	tok.Name.Local = local
	tok.Attrs = tok.Attrs[:0]
	tok.Text = text
	tok.Forbidden = false
}

// syntaxError is the *xml.SyntaxError msg, on the line of buf[at].
func (t *Scanner) syntaxError(msg string, at int) error {
	at = min(max(at, t.pos), t.end)
	return &xml.SyntaxError{Msg: msg, Line: t.lines - bytes.Count(t.buf[at:t.end], []byte{'\n'})}
}

// eofError is the error of a token cut short by the end of the input.
func (t *Scanner) eofError() error {
	if t.rerr == io.EOF {
		return t.truncated("unexpected EOF")
	}
	return t.rerr
}

// TruncatedError is the *xml.SyntaxError of input that ends before the
// document does: inside a token, or with elements open. Its type, not its
// message, tells a reader that the input was cut off.
type TruncatedError struct{ *xml.SyntaxError }

// Unwrap returns the syntax error, so that errors.As finds it.
func (e *TruncatedError) Unwrap() error { return e.SyntaxError }

// truncated is the *TruncatedError msg, on the last line read.
func (t *Scanner) truncated(msg string) error {
	return &TruncatedError{t.syntaxError(msg, t.end).(*xml.SyntaxError)}
}

// more reads at least want (> 0) more bytes of the input after buf[pos:end],
// or until the buffer is full, moving buf[pos:end] to the front of the
// buffer and growing it if they fill it. A token cut short by end asks for
// as many bytes again as it has, so that it is scanned a number of times
// logarithmic in its size, whatever the size of the reads. more reports
// whether it read anything; when it did not, t.rerr is set.
func (t *Scanner) more(want int) bool {
	if t.rerr != nil {
		return false
	}
	if t.pos > 0 {
		t.end = copy(t.buf, t.buf[t.pos:t.end])
		t.pos = 0
	}
	if t.end == len(t.buf) {
		b := make([]byte, 2*len(t.buf))
		copy(b, t.buf[:t.end])
		t.buf = b
	}
	start := t.end
	for empty := 0; t.end < len(t.buf) && t.end-start < want; {
		n, err := t.r.Read(t.buf[t.end:])
		if n < 0 || n > len(t.buf)-t.end {
			t.rerr = errors.New("xml scanner: reader returned an invalid count")
			break
		}
		t.end += n
		if err != nil {
			t.rerr = err
			break
		}
		if n == 0 {
			if empty++; empty >= 100 {
				t.rerr = io.ErrNoProgress
				break
			}
		}
	}
	t.lines += bytes.Count(t.buf[start:t.end], []byte{'\n'})
	return t.end > start
}

// wait is called when the token at pos runs past end: it reads more, or
// returns the error that ends the token.
func (t *Scanner) wait() error {
	if t.more(max(t.end-t.pos, 1)) {
		return nil
	}
	return t.eofError()
}

// rawToken is Decoder.rawToken: it reads the next token, its names
// untranslated, into t.tok.
func (t *Scanner) rawToken() (rawKind, error) {
	if t.needClose {
		t.needClose = false
		t.tok.set(End, t.toClose[:t.toCloseAt], t.toClose[t.toCloseAt:], nil)
		return rawEnd, nil
	}
	if t.inCDATA {
		return t.cdata()
	}
	for t.pos == t.end {
		if !t.more(1) {
			if t.longRef && t.rerr == io.EOF {
				return 0, t.eofError()
			}
			return 0, t.rerr
		}
	}
	if t.buf[t.pos] != '<' {
		return t.text()
	}
	t.longRef = false
	for t.end-t.pos < 2 {
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
	switch t.buf[t.pos+1] {
	case '/':
		return t.endTag()
	case '?':
		return t.procInst()
	case '!':
		return t.bang()
	}
	return t.startTag()
}

// text reads character data up to the next '<', or as much of it as fills
// the buffer.
func (t *Scanner) text() (rawKind, error) {
	for {
		b := t.buf[t.pos:t.end]
		n := bytes.IndexByte(b, '<')
		eof, cut := false, false
		if n < 0 {
			switch {
			case t.rerr != nil:
				n, eof = len(b), true
				if t.longRef && t.rerr == io.EOF && refRun(b) == len(b) {
					return 0, t.eofError()
				}
			case t.pos > 0 || t.end < len(t.buf):
				t.more(max(len(b), 1))
				continue
			default:
				if n = textCut(b, modeText); n == 0 {
					t.more(max(len(b), 1))
					continue
				}
				cut = true
			}
		}
		if !t.strict {
			// Looked at before decode rewrites b.
			t.longRef = cut && inLongRef(b[:n], t.longRef)
		}
		out, err := t.decode(b[:n], modeText, eof, t.pos)
		if err != nil {
			return 0, err
		}
		t.pos += n
		t.tok.set(Text, nil, nil, out)
		t.tok.Forbidden, t.forbidden = t.forbidden, false
		return rawText, nil
	}
}

// refRun is the length of the run of bytes a reference may go on with at
// the front of b.
func refRun(b []byte) int {
	i := 0
	for i < len(b) && refByte[b[i]] {
		i++
	}
	return i
}

// inLongRef reports whether the text b, handed out with a reference longer
// than maxRefLength cut at its end (so read as text), leaves the reference
// still going: a '&' and the bytes of a reference up to its end, or, when
// long was so before b, the bytes of a reference alone. Tolerant mode then
// ends in an error if the input ends before the reference does, as
// encoding/xml does, which reads a reference whole.
func inLongRef(b []byte, long bool) bool {
	if a := bytes.LastIndexByte(b, '&'); a >= 0 {
		return refRun(b[a+1:]) == len(b)-a-1
	}
	return long && refRun(b) == len(b)
}

// cdata reads a CDATA section, after its "<![CDATA[", up to its "]]>", or as
// much of it as fills the buffer.
func (t *Scanner) cdata() (rawKind, error) {
	for {
		b := t.buf[t.pos:t.end]
		n := bytes.Index(b, []byte("]]>"))
		skip := 3
		if n < 0 {
			switch {
			case t.rerr == io.EOF:
				return 0, t.truncated("unexpected EOF in CDATA section")
			case t.rerr != nil:
				return 0, t.rerr
			case t.pos > 0 || t.end < len(t.buf):
				t.more(max(len(b), 1))
				continue
			default:
				if n = textCut(b, modeCDATA); n == 0 {
					t.more(max(len(b), 1))
					continue
				}
				skip = 0
			}
		}
		out, err := t.decode(b[:n], modeCDATA, false, t.pos)
		if err != nil {
			return 0, err
		}
		t.pos += n + skip
		t.inCDATA = skip == 0
		t.tok.set(Text, nil, nil, out)
		return rawText, nil
	}
}

// textCut returns how much of b, character data that fills the buffer, can
// be handed out now: all but a reference that may go on, a '\r' that may be
// followed by '\n', a "]" or "]]" that may be followed by '>', or the start
// of a multi-byte character.
func textCut(b []byte, mode textMode) int {
	n := len(b)
	if mode != modeCDATA {
		if a := bytes.LastIndexByte(b, '&'); a >= 0 {
			i := a + 1
			for i < n && (refByte[b[i]]) {
				i++
			}
			// A reference longer than maxRefLength is not waited for: it
			// is handed out cut, and read as what is not a reference.
			if i == n && n-a <= maxRefLength {
				return a
			}
		}
	}
	switch {
	case b[n-1] == '\r':
		return n - 1
	case b[n-1] == ']':
		if n >= 2 && b[n-2] == ']' {
			return n - 2
		}
		return n - 1
	}
	for k := 1; k <= 3 && k <= n; k++ {
		c := b[n-k]
		if c < utf8.RuneSelf {
			break
		}
		if c >= 0xC0 {
			if !utf8.FullRune(b[n-k:]) {
				return n - k
			}
			break
		}
	}
	return n
}

// decode is Decoder.text after the reading: it unescapes b in place (no
// replacement is longer than what it replaces), rewrites "\r\n" and '\r' as
// '\n', and checks that the result is UTF-8 of XML characters. eof tells
// that b ends the input, so that a reference cut short by it is an error;
// otherwise b ends before a byte that ends any reference. at is b's offset
// in the buffer, for the line of an error.
func (t *Scanner) decode(b []byte, mode textMode, eof bool, at int) ([]byte, error) {
	i := plainPrefix(b)
	if i == len(b) {
		return b, nil
	}
	w := i
	for i < len(b) {
		c := b[i]
		switch {
		case plainByte[c]:
			j := i + 1
			for j < len(b) && plainByte[b[j]] {
				j++
			}
			w += copy(b[w:], b[i:j])
			i = j
		case c == '\r':
			b[w] = '\n'
			w++
			i++
			if i < len(b) && b[i] == '\n' {
				i++
			}
		case c == ']':
			if mode == modeText && i+2 < len(b) && b[i+1] == ']' && b[i+2] == '>' {
				return nil, t.syntaxError("unescaped ]]> not in CDATA section", at+i)
			}
			b[w] = c
			w++
			i++
		case c == '&' && mode != modeCDATA:
			nw, j, err := t.reference(b, i, w, eof, at)
			if err != nil {
				return nil, err
			}
			if nw < 0 {
				// Tolerant mode keeps what is not a reference as it is;
				// the bytes after '&' are read again as text.
				b[w] = c
				w++
				i++
				continue
			}
			w, i = nw, j
		case c < utf8.RuneSelf:
			if c != '&' && c != ']' && c < 0x20 {
				return nil, t.syntaxError(fmt.Sprintf("illegal character code %U", rune(c)), at+i)
			}
			b[w] = c
			w++
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, t.syntaxError("invalid UTF-8", at+i)
			}
			if !isInCharacterRange(r) {
				return nil, t.syntaxError(fmt.Sprintf("illegal character code %U", r), at+i)
			}
			w += copy(b[w:], b[i:i+size])
			i += size
		}
	}
	return b[:w], nil
}

// plainPrefix is the length of the run of plainByte at the front of b. It
// looks at eight bytes at a time while none of them is below 0x20, above
// 0x7F, '&' or ']'.
func plainPrefix(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for {
		for ; i+8 <= len(b); i += 8 {
			x := binary.LittleEndian.Uint64(b[i:])
			amp, bracket := x^(ones*'&'), x^(ones*']')
			if (x-ones*0x20)&^x&highs|x&highs|(amp-ones)&^amp&highs|(bracket-ones)&^bracket&highs != 0 {
				break
			}
		}
		// Byte by byte up to the next block: past a tab or a newline, or to
		// what needs a second look.
		k := min(i+8, len(b))
		for i < k && plainByte[b[i]] {
			i++
		}
		if i < k || i == len(b) {
			return i
		}
	}
}

// reference reads the reference at b[i] == '&' as Decoder.text does and
// writes its replacement at b[w:], which is never longer than the reference.
// It returns the index after the replacement and the index after the
// reference, or nw < 0 for what tolerant mode keeps as text.
func (t *Scanner) reference(b []byte, i, w int, eof bool, at int) (nw, j int, err error) {
	// cut is a reference that reaches the end of b: the end of the input,
	// or a byte that is not ';' and is read again as text.
	var cut bool
	if i+1 < len(b) && b[i+1] == '#' {
		nw, j, cut, err = t.charRef(b, i+2, w, at+i)
	} else {
		nw, j, cut, err = t.entityRef(b, i+1, w, at+i)
	}
	switch {
	case err != nil:
		return -1, 0, err
	case cut && eof:
		return -1, 0, t.eofError()
	case !cut && nw >= 0:
		return nw, j, nil
	}
	return t.notReference(b, i, j, at)
}

// charRef reads the digits of a character reference from b[j], after
// "&#", and writes the character at b[w:]. It returns the index after the
// character (or -1 for none) and the index after the reference; cut tells
// that the reference reaches the end of b. at is where the reference
// starts, for the errors.
func (t *Scanner) charRef(b []byte, j, w, at int) (nw, end int, cut bool, err error) {
	if j == len(b) {
		return -1, j, true, nil
	}
	base := uint64(10)
	if b[j] == 'x' {
		base = 16
		if j++; j == len(b) {
			return -1, j, true, nil
		}
	}
	start := j
	var n uint64
	for ; j < len(b); j++ {
		d := uint64(digitVal[b[j]])
		if d >= base {
			break
		}
		if n <= unicode.MaxRune {
			n = n*base + d
		}
	}
	if j == len(b) {
		return -1, j, true, nil
	}
	if b[j] != ';' {
		return -1, j, false, nil
	}
	j++
	switch {
	case j-1 == start: // "&#;" or "&#x;": no digits, no reference
	case n <= unicode.MaxRune && isInCharacterRange(rune(n)):
		return w + utf8.EncodeRune(b[w:], rune(n)), j, false, nil
	case !t.strict:
		// A code point XML forbids (a surrogate and one past U+10FFFF
		// included, which encoding/xml reads as U+FFFD and as text):
		// tolerant mode puts U+FFFD in its place and marks the token, so
		// that it costs the entry it stands in, not the document.
		t.forbidden = true
		return w + utf8.EncodeRune(b[w:], utf8.RuneError), j, false, nil
	case n <= unicode.MaxRune:
		return -1, 0, false, t.syntaxError(fmt.Sprintf("illegal character code %U", rune(n)), at)
	}
	return -1, j, false, nil
}

// entityRef reads the name of an entity reference from b[j], after "&",
// and writes its replacement at b[w:], as charRef does.
func (t *Scanner) entityRef(b []byte, j, w, at int) (nw, end int, cut bool, err error) {
	start := j
	for j < len(b) && nameByte[b[j]] {
		j++
	}
	if j == len(b) {
		return -1, j, true, nil
	}
	if b[j] != ';' {
		return -1, j, false, nil
	}
	name := b[start:j]
	j++
	if !isName(name) {
		return -1, j, false, nil
	}
	if c := predefinedEntity(name); c != 0 {
		b[w] = c
		return w + 1, j, false, nil
	}
	if t.strict {
		return -1, j, false, nil
	}
	s, ok := xml.HTMLEntity[string(name)]
	if !ok {
		return -1, j, false, nil
	}
	for _, r := range s {
		if !isInCharacterRange(r) {
			return -1, 0, false, t.syntaxError(fmt.Sprintf("illegal character code %U", r), at)
		}
	}
	return w + copy(b[w:], s), j, false, nil
}

// notReference is b[i:j], read from '&' on, that is not a reference: an
// error in strict mode, text in tolerant mode.
func (t *Scanner) notReference(b []byte, i, j, at int) (int, int, error) {
	if t.strict {
		ent := string(b[i:j])
		if ent[len(ent)-1] != ';' {
			ent += " (no semicolon)"
		}
		return -1, 0, t.syntaxError("invalid character entity "+ent, at+i)
	}
	return -1, 0, nil
}

// predefinedEntity is the character of one of the five entities XML
// predefines, or 0.
func predefinedEntity(name []byte) byte {
	switch string(name) {
	case "lt":
		return '<'
	case "gt":
		return '>'
	case "amp":
		return '&'
	case "apos":
		return '\''
	case "quot":
		return '"'
	}
	return 0
}

// isInCharacterRange is the function of encoding/xml: r is a Char of XML 1.0.
func isInCharacterRange(r rune) bool {
	return r == 0x09 ||
		r == 0x0A ||
		r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// endTag reads an end tag "</name S? >".
func (t *Scanner) endTag() (rawKind, error) {
	// Nearly always the end tag is "</" and the name of the open element,
	// checked when it started, then '>'.
	if n := len(t.stk); n > 0 && !t.stk[n-1].binding {
		e := &t.stk[n-1]
		prefix, local := t.arena[e.off:e.mid], t.arena[e.mid:e.end]
		b := t.buf[t.pos+2 : t.end]
		i := len(local) + 1
		if len(prefix) > 0 {
			i += len(prefix) + 1
		}
		if i <= len(b) && b[i-1] == '>' {
			if len(prefix) == 0 && string(b[:i-1]) == string(local) {
				t.pos += 2 + i
				t.tok.set(End, b[:0], b[:i-1], nil)
				t.endOfTop = true
				return rawEnd, nil
			}
			if len(prefix) > 0 && string(b[:len(prefix)]) == string(prefix) && b[len(prefix)] == ':' && string(b[len(prefix)+1:i-1]) == string(local) {
				t.pos += 2 + i
				t.tok.set(End, b[:len(prefix)], b[len(prefix)+1:i-1], nil)
				t.endOfTop = true
				return rawEnd, nil
			}
		}
	}
	for {
		b := t.buf[t.pos:t.end]
		prefix, local, i, err := t.nsName(b, 2, "expected element name after </")
		if err == nil {
			i = skipSpace(b, i)
			switch {
			case i == len(b) && t.pos == 0 && t.end == len(t.buf) && t.rerr == nil:
				t.pos = t.end // the name and the space after it
				return t.endTagSpace(prefix, local)
			case i == len(b):
				err = errNeedMore
			case b[i] != '>':
				return 0, t.syntaxError("invalid characters between </"+string(local)+" and >", t.pos+i)
			}
		}
		if err == errNeedMore {
			if err = t.wait(); err != nil {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		t.pos += i + 1
		t.tok.set(End, prefix, local, nil)
		return rawEnd, nil
	}
}

// endTagSpace reads the rest of an end tag prefix:local, slices of the
// buffer read up to pos, whose white space filled the buffer: the name is
// copied aside, and the space is let go as it is read.
func (t *Scanner) endTagSpace(prefix, local []byte) (rawKind, error) {
	t.endName = append(append(t.endName[:0], prefix...), local...)
	prefix, local = t.endName[:len(prefix)], t.endName[len(prefix):]
	for {
		t.pos = skipSpace(t.buf[:t.end], t.pos)
		if t.pos < t.end {
			break
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
	if t.buf[t.pos] != '>' {
		return 0, t.syntaxError("invalid characters between </"+string(local)+" and >", t.pos)
	}
	t.pos++
	t.tok.set(End, prefix, local, nil)
	return rawEnd, nil
}

// startTag reads a start tag with its attributes, then unescapes the
// attribute values in place: the tag is read whole before anything in it
// changes, since reading it again after more input would see the changes.
// A tag that does not fit in the buffer is read by longStart instead.
func (t *Scanner) startTag() (rawKind, error) {
	for {
		n, empty, err := t.parseStart(t.buf[t.pos:t.end])
		if err == errNeedMore {
			if t.pos == 0 && t.end == len(t.buf) && t.rerr == nil {
				return t.longStart()
			}
			if err = t.wait(); err != nil {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		for i := range t.tok.Attrs {
			if !t.quoted[i] {
				continue
			}
			a := &t.tok.Attrs[i]
			at := t.pos + (cap(t.buf[t.pos:]) - cap(a.Value))
			if a.Value, err = t.decode(a.Value, modeAttr, false, at); err != nil {
				return 0, err
			}
		}
		t.tok.Forbidden, t.forbidden = t.forbidden, false
		if t.keep != nil {
			if err := t.keepAttrs(); err != nil {
				return 0, err
			}
		}
		if empty {
			t.needClose = true
			t.toClose = append(append(t.toClose[:0], t.tok.Name.Space...), t.tok.Name.Local...)
			t.toCloseAt = len(t.tok.Name.Space)
		}
		t.pos += n
		return rawStart, nil
	}
}

// keepAttrs drops from t.tok the attributes that t.keep does not read, and
// cuts the values of those it does, as longStart does.
func (t *Scanner) keepAttrs() error {
	attrs, kept := t.tok.Attrs[:0], 0
	for _, a := range t.tok.Attrs {
		if !isDecl(a.Name) {
			if !t.keep.wants(t.tok.Name.Local, a.Name.Local) {
				continue
			}
			if kept++; kept > maxKeptAttrs {
				return t.syntaxError(fmt.Sprintf("element <%s> has more than %d attributes read", t.tok.Name.Local, maxKeptAttrs), t.pos)
			}
			a.Value = a.Value[:min(len(a.Value), t.keep.Keep+1)]
		}
		attrs = append(attrs, a)
	}
	t.tok.Attrs = attrs
	return nil
}

// isDecl reports whether the attribute named n, untranslated, declares a
// namespace.
func isDecl(n Name) bool {
	return bytes.Equal(n.Space, xmlnsBytes) || len(n.Space) == 0 && bytes.Equal(n.Local, xmlnsBytes)
}

// longStart reads a start tag that does not fit in the buffer, from its
// '<' at pos, through the buffer: each name, each '=' and each chunk of a
// value is let go once read, and what is kept of it (the names, the
// namespace declarations and the attributes t.keep reads) is copied to
// t.tagArena first. So the tag costs what is kept of it, whatever its
// length; with t.keep nil that is all of it, as with parseStart.
func (t *Scanner) longStart() (rawKind, error) {
	lt := longTag{ar: t.tagArena[:0], parts: t.tagParts[:0]}
	prefix, local, err := t.waitName(1, "expected element name after <")
	if err != nil {
		return 0, err
	}
	lt.ar = append(append(lt.ar, prefix...), local...)
	lt.nameMid, lt.nameEnd = len(prefix), len(lt.ar)
	empty, err := t.longAttrs(&lt)
	if err != nil {
		return 0, err
	}
	ar, nameMid, nameEnd := lt.ar, lt.nameMid, lt.nameEnd
	t.tagArena, t.tagParts = ar, lt.parts
	t.tok.set(Start, ar[:nameMid], ar[nameMid:nameEnd], nil)
	t.tok.Forbidden, t.forbidden = t.forbidden, false
	for _, p := range lt.parts {
		t.tok.Attrs = append(t.tok.Attrs, Attr{Name{ar[p.off:p.mid], ar[p.mid:p.val]}, ar[p.val:p.end]})
	}
	if empty {
		t.needClose = true
		t.toClose = append(append(t.toClose[:0], ar[:nameMid]...), ar[nameMid:nameEnd]...)
		t.toCloseAt = nameMid
	}
	return rawStart, nil
}

// longTag is what longStart keeps of a long start tag: the element's name
// at ar[:nameEnd], split at nameMid, and the attributes kept, parts, whose
// bytes follow in ar.
type longTag struct {
	ar               []byte
	parts            []tagPart
	nameMid, nameEnd int
	decls, kept      int // the namespace declarations and the attributes read so far
	val, limit       int // the value being read starts at ar[val:]; limit is how much of it is kept, -1 for all
}

// add keeps what limit allows of b, the next bytes of the value being read.
func (lt *longTag) add(b []byte) {
	if lt.limit >= 0 {
		b = b[:min(len(b), max(lt.limit-(len(lt.ar)-lt.val), 0))]
	}
	lt.ar = append(lt.ar, b...)
}

// need waits until n bytes from pos are read.
func (t *Scanner) need(n int) error {
	for t.end-t.pos < n {
		if err := t.wait(); err != nil {
			return err
		}
	}
	return nil
}

// waitSpace waits until pos is at a byte that is not white space, letting
// the space go.
func (t *Scanner) waitSpace() error {
	for {
		t.pos = skipSpace(t.buf[:t.end], t.pos)
		if t.pos < t.end {
			return nil
		}
		if err := t.wait(); err != nil {
			return err
		}
	}
}

// waitName reads the name at pos+i, waiting for it whole, and moves pos
// past it.
func (t *Scanner) waitName(i int, msg string) (prefix, local []byte, err error) {
	for {
		prefix, local, j, err := t.nsName(t.buf[t.pos:t.end], i, msg)
		if err == errNeedMore {
			if err = t.wait(); err != nil {
				return nil, nil, err
			}
			continue
		}
		if err == nil {
			t.pos += j
		}
		return prefix, local, err
	}
}

// longAttrs reads the attributes of a long start tag up to its end, and
// tells whether it ends in "/>".
func (t *Scanner) longAttrs(lt *longTag) (empty bool, err error) {
	for {
		if err := t.waitSpace(); err != nil {
			return false, err
		}
		switch t.buf[t.pos] {
		case '/':
			if err := t.need(2); err != nil {
				return false, err
			}
			if t.buf[t.pos+1] != '>' {
				return false, t.syntaxError("expected /> in element", t.pos)
			}
			t.pos += 2
			return true, nil
		case '>':
			t.pos++
			return false, nil
		}
		if err := t.longAttr(lt); err != nil {
			return false, err
		}
	}
}

// longAttr reads one attribute of a long start tag, and keeps it in lt if
// it is kept.
func (t *Scanner) longAttr(lt *longTag) error {
	ap, al, err := t.waitName(0, "expected attribute name in element")
	if err != nil {
		return err
	}
	decl := isDecl(Name{ap, al})
	keep, err := t.longKeep(lt, decl, al)
	if err != nil {
		return err
	}
	var p tagPart
	p.off = len(lt.ar)
	if keep {
		lt.ar = append(lt.ar, ap...)
		p.mid = len(lt.ar)
		lt.ar = append(lt.ar, al...)
	}
	p.val = len(lt.ar)
	lt.val = p.val
	if err := t.waitSpace(); err != nil {
		return err
	}
	if err := t.longValue(lt, keep, p.mid); err != nil {
		return err
	}
	if !keep {
		return nil
	}
	if decl {
		if err := t.checkDecl(&lt.decls, 0, lt.ar[p.val:]); err != nil {
			return err
		}
	}
	p.end = len(lt.ar)
	lt.parts = append(lt.parts, p)
	return nil
}

// longKeep tells whether the attribute local of a long start tag is kept,
// a namespace declaration when decl, and sets how much of its value is.
func (t *Scanner) longKeep(lt *longTag, decl bool, local []byte) (bool, error) {
	keep := t.keep == nil || decl
	if !keep && t.keep.wants(lt.ar[lt.nameMid:lt.nameEnd], local) {
		if lt.kept++; lt.kept > maxKeptAttrs {
			return false, t.syntaxError(fmt.Sprintf("element <%s> has more than %d attributes read", lt.ar[lt.nameMid:lt.nameEnd], maxKeptAttrs), t.pos)
		}
		keep = true
	}
	lt.limit = -1
	switch {
	case decl:
		if lt.decls >= maxNSDecls {
			return false, t.checkDecl(&lt.decls, 0, nil)
		}
		lt.limit = maxNSURILength + 1
	case !keep:
		lt.limit = 0
	case t.keep != nil:
		lt.limit = t.keep.Keep + 1
	}
	return keep, nil
}

// longValue reads the value of an attribute of a long start tag from pos,
// at '=' or at what follows a name without one; mid is where the name's
// local part starts in lt.ar.
func (t *Scanner) longValue(lt *longTag, keep bool, mid int) error {
	if t.buf[t.pos] != '=' {
		if t.strict {
			return t.syntaxError("attribute name without = in element", t.pos)
		}
		if keep {
			lt.add(lt.ar[mid:lt.val])
		}
		return nil
	}
	t.pos++
	if err := t.waitSpace(); err != nil {
		return err
	}
	switch q := t.buf[t.pos]; {
	case q == '"' || q == '\'':
		t.pos++
		return t.longQuoted(lt, q)
	case t.strict:
		return t.syntaxError("unquoted or missing attribute value in element", t.pos)
	}
	return t.longUnquoted(lt)
}

// longQuoted reads a quoted value from pos, after its quote q, chunk by
// chunk through the buffer.
func (t *Scanner) longQuoted(lt *longTag, q byte) error {
	for {
		b := t.buf[t.pos:t.end]
		k := bytes.IndexByte(b, q)
		v := b
		if k >= 0 {
			v = b[:k]
		}
		if at := bytes.IndexByte(v, '<'); at >= 0 {
			return t.syntaxError("unescaped < inside quoted string", t.pos+at)
		}
		n := len(v)
		if k < 0 && n > 0 {
			n = textCut(v, modeAttr)
		}
		if n > 0 {
			out, err := t.decode(v[:n], modeAttr, false, t.pos)
			if err != nil {
				return err
			}
			lt.add(out)
			t.pos += n
		}
		if k >= 0 {
			t.pos++
			return nil
		}
		if err := t.wait(); err != nil {
			return err
		}
	}
}

// longUnquoted reads an unquoted value from pos, as HTML does, which
// tolerant mode allows.
func (t *Scanner) longUnquoted(lt *longTag) error {
	for {
		b := t.buf[t.pos:t.end]
		k := 0
		for k < len(b) && unquotedByte[b[k]] {
			k++
		}
		lt.add(b[:k])
		t.pos += k
		if k < len(b) {
			return nil
		}
		if err := t.wait(); err != nil {
			return err
		}
	}
}

// parseStart reads the start tag at the front of b into t.tok without
// changing b. It returns the length of the tag and whether it ends in "/>".
func (t *Scanner) parseStart(b []byte) (n int, empty bool, err error) {
	prefix, local, i, err := t.nsName(b, 1, "expected element name after <")
	if err != nil {
		return 0, false, err
	}
	t.tok.set(Start, prefix, local, nil)
	t.quoted = t.quoted[:0]
	for {
		i = skipSpace(b, i)
		if i == len(b) {
			return 0, false, errNeedMore
		}
		switch b[i] {
		case '/':
			if i+1 == len(b) {
				return 0, false, errNeedMore
			}
			if b[i+1] != '>' {
				return 0, false, t.syntaxError("expected /> in element", t.pos+i)
			}
			return i + 2, true, nil
		case '>':
			return i + 1, false, nil
		}
		var a Attr
		if a.Name.Space, a.Name.Local, i, err = t.nsName(b, i, "expected attribute name in element"); err != nil {
			return 0, false, err
		}
		i = skipSpace(b, i)
		if i == len(b) {
			return 0, false, errNeedMore
		}
		quoted := false
		switch {
		case b[i] != '=':
			if t.strict {
				return 0, false, t.syntaxError("attribute name without = in element", t.pos+i)
			}
			a.Value = a.Name.Local
		default:
			if i = skipSpace(b, i+1); i == len(b) {
				return 0, false, errNeedMore
			}
			switch q := b[i]; {
			case q == '"' || q == '\'':
				v := b[i+1:]
				k := bytes.IndexByte(v, q)
				if k >= 0 {
					v = v[:k]
				}
				if lt := bytes.IndexByte(v, '<'); lt >= 0 {
					return 0, false, t.syntaxError("unescaped < inside quoted string", t.pos+i+1+lt)
				}
				if k < 0 {
					return 0, false, errNeedMore
				}
				a.Value = v
				quoted = true
				i += k + 2
			case t.strict:
				return 0, false, t.syntaxError("unquoted or missing attribute value in element", t.pos+i)
			default:
				// Tolerant mode reads an unquoted value as HTML does.
				k := i
				for k < len(b) && unquotedByte[b[k]] {
					k++
				}
				if k == len(b) {
					return 0, false, errNeedMore
				}
				a.Value = b[i:k]
				i = k
			}
		}
		t.tok.Attrs = append(t.tok.Attrs, a)
		t.quoted = append(t.quoted, quoted)
	}
}

// nsName is Decoder.nsname at b[i]: a name, split at its colon into a
// prefix and a local name. It returns the index after the name; a name that
// is missing or has more than one colon is the syntax error msg.
func (t *Scanner) nsName(b []byte, i int, msg string) (prefix, local []byte, j int, err error) {
	j = i
	var seen uint8
	colon, colons := 0, 0
	for j < len(b) {
		// Names are mostly letters: skip them eight at a time, then look
		// at the byte that is not one through the table.
		for j+8 <= len(b) {
			if m := asciiLetters(binary.LittleEndian.Uint64(b[j:])); m != allHigh {
				j += bits.TrailingZeros64(^m&allHigh) >> 3
				break
			}
			j += 8
		}
		if j == len(b) {
			break
		}
		c := nameClass[b[j]]
		if c == 0 {
			break
		}
		if c == nameColon {
			colon = j - i
			colons++
		}
		seen |= c
		j++
	}
	if j-i > maxNameLength {
		return nil, nil, 0, t.syntaxError(fmt.Sprintf("XML name longer than %d bytes", maxNameLength), t.pos+i)
	}
	if j == len(b) {
		return nil, nil, 0, errNeedMore
	}
	name := b[i:j]
	if len(name) == 0 {
		return nil, nil, 0, t.syntaxError(msg, t.pos+i)
	}
	if seen&nameNonASCII == 0 && !firstASCII[name[0]] || seen&nameNonASCII != 0 && !isName(name) {
		return nil, nil, 0, t.syntaxError("invalid XML name: "+string(name), t.pos+i)
	}
	switch {
	case colons == 0:
		return name[:0], name, j, nil
	case colons > 1:
		return nil, nil, 0, t.syntaxError(msg, t.pos+i)
	case colon == 0 || colon == len(name)-1:
		return name[:0], name, j, nil
	}
	return name[:colon], name[colon+1:], j, nil
}

// allHigh has the high bit of every byte of a word set.
const allHigh = 0x8080808080808080

// asciiLetters returns the word w, eight bytes, with the high bit of each
// byte set that is an ASCII letter and every other bit clear. Each byte is
// tested at once without carries into the next: with its high bit cleared
// first, adding to it cannot overflow it.
func asciiLetters(w uint64) uint64 {
	const ones = 0x0101010101010101
	l := (w | 0x2020202020202020) &^ allHigh // lower case, and below 0x80
	atLeastA := l + (0x80-'a')*ones
	pastZ := l + (0x80-'z'-1)*ones
	return atLeastA &^ pastZ &^ w & allHigh
}

// skipSpace is Decoder.space: the index of the first byte at or after b[i]
// that is not XML white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\r', '\n', '\t':
			i++
			continue
		}
		break
	}
	return i
}

// procInst skips a processing instruction; if it is the XML declaration, its
// version must be 1.0, as in Decoder.rawToken. Its encoding is not looked at:
// the input is UTF-8 already.
//
// Any other processing instruction streams through the buffer: what has
// been looked at is let go at each read, so that one of any length costs
// nothing. The XML declaration is held whole, up to maxXMLDeclLength.
func (t *Scanner) procInst() (rawKind, error) {
	i := 2
	for {
		b := t.buf[t.pos:t.end]
		for i < len(b) && nameByte[b[i]] {
			i++
		}
		if i-2 > maxNameLength {
			return 0, t.syntaxError(fmt.Sprintf("XML name longer than %d bytes", maxNameLength), t.pos+2)
		}
		if i < len(b) {
			break
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
	b := t.buf[t.pos:t.end]
	target := b[2:i]
	switch {
	case len(target) == 0:
		return 0, t.syntaxError("expected target name after <?", t.pos+2)
	case !isName(target):
		return 0, t.syntaxError("invalid XML name: "+string(target), t.pos+2)
	}
	if string(target) == "xml" {
		return t.xmlDecl(i)
	}
	for {
		b := t.buf[t.pos:t.end]
		i = skipSpace(b, i)
		if k := bytes.Index(b[i:], []byte("?>")); k >= 0 {
			t.pos += i + k + 2
			return rawSkip, nil
		}
		// A '?' at the end may start the "?>".
		t.pos += max(i, len(b)-1)
		i = 0
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// xmlDecl reads the rest of the XML declaration, from b[i] after its
// target, whole: its version must be 1.0, as in Decoder.rawToken.
func (t *Scanner) xmlDecl(i int) (rawKind, error) {
	for {
		b := t.buf[t.pos:t.end]
		j := skipSpace(b, i)
		if k := bytes.Index(b[j:], []byte("?>")); k >= 0 {
			if v := procInstParam("version", b[j:j+k]); len(v) > 0 && string(v) != "1.0" {
				return 0, fmt.Errorf("xml: unsupported version %q; only version 1.0 is supported", v)
			}
			t.pos += j + k + 2
			return rawSkip, nil
		}
		if len(b) > maxXMLDeclLength {
			return 0, t.syntaxError(fmt.Sprintf("XML declaration longer than %d bytes", maxXMLDeclLength), t.pos)
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// procInstParam is procInst of encoding/xml: the value of param="..." or
// param='...' in s, or nil.
func procInstParam(param string, s []byte) []byte {
	lenp := len(param) + 1
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := indexParam(sub, param)
		if k < 0 || lenp+k >= len(sub) {
			return nil
		}
		i += lenp + k + 1
		if c := sub[lenp+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return nil
	}
	j := bytes.IndexByte(s[i:], sep)
	if j < 0 {
		return nil
	}
	return s[i : i+j]
}

// indexParam is the index of param + "=" in s, or -1.
func indexParam(s []byte, param string) int {
	for off := 0; ; {
		k := bytes.Index(s[off:], []byte(param))
		if k < 0 {
			return -1
		}
		k += off
		if k+len(param) < len(s) && s[k+len(param)] == '=' {
			return k
		}
		off = k + 1
	}
}

// bang reads what starts with "<!": a comment, a CDATA section or a
// directive.
func (t *Scanner) bang() (rawKind, error) {
	for {
		b := t.buf[t.pos:t.end]
		if len(b) >= 3 {
			switch b[2] {
			case '-':
				if len(b) >= 4 {
					if b[3] != '-' {
						return 0, t.syntaxError("invalid sequence <!- not part of <!--", t.pos+3)
					}
					return t.comment()
				}
			case '[':
				const open = "<![CDATA["
				k := 3
				for k < len(b) && k < len(open) && b[k] == open[k] {
					k++
				}
				if k == len(open) {
					t.pos += k
					t.inCDATA = true
					return t.cdata()
				}
				if k < len(b) {
					return 0, t.syntaxError("invalid <![ sequence", t.pos+k)
				}
			default:
				return t.directive()
			}
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// comment skips the comment at pos, after its "<!--", to its "-->" as
// Decoder.rawToken does: "--" ends it, and must be followed by '>'. What
// has been looked at is let go at each read, so that a comment of any
// length costs nothing.
func (t *Scanner) comment() (rawKind, error) {
	i := 4
	for {
		b := t.buf[t.pos:t.end]
		k := bytes.Index(b[i:], []byte("--"))
		switch {
		case k >= 0 && i+k+2 < len(b):
			if b[i+k+2] != '>' {
				return 0, t.syntaxError(`invalid sequence "--" not allowed in comments`, t.pos+i+k+2)
			}
			t.pos += i + k + 3
			return rawSkip, nil
		case k >= 0:
			i += k // the "--" ends the bytes read: keep it
		default:
			i = max(i, len(b)-1) // a '-' at the end may start a "--"
		}
		t.pos += i
		i = 0
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// directive skips the directive at pos, such as <!DOCTYPE ...>, through
// the buffer as comment does.
func (t *Scanner) directive() (rawKind, error) {
	var d dirState
	i := 3
	for {
		b := t.buf[t.pos:t.end]
		n, done := skipDirective(b, i, &d)
		t.pos += n
		if done {
			return rawSkip, nil
		}
		i = 0
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// dirState is where skipDirective is in a directive: in a quoted string,
// how deep in angle brackets, in a comment.
type dirState struct {
	inquote byte
	depth   int
	comment bool
}

// skipDirective reads a directive such as <!DOCTYPE ...> from b[i], after
// "<!" and the byte after it, as Decoder.rawToken does: angle brackets nest
// outside quotes, and a comment inside is skipped. It returns the length of
// the directive and true, or, if it runs past b, how much of b it is done
// with, d telling where it is after those bytes.
func skipDirective(b []byte, i int, d *dirState) (int, bool) {
	for i < len(b) {
		if d.comment {
			k := bytes.Index(b[i:], []byte("-->"))
			if k < 0 {
				return max(i, len(b)-2), false // "--" may end b
			}
			i += k + 3
			d.comment = false
			continue
		}
		c := b[i]
		if d.inquote == 0 && c == '>' && d.depth == 0 {
			return i + 1, true
		}
		switch {
		case c == d.inquote:
			d.inquote = 0
		case d.inquote != 0:
		case c == '\'' || c == '"':
			d.inquote = c
		case c == '>':
			d.depth--
		case c == '<':
			const open = "!--"
			k := 0
			for k < len(open) && i+1+k < len(b) && b[i+1+k] == open[k] {
				k++
			}
			switch {
			case k == len(open):
				d.comment = true
				i += 1 + k
				continue
			case i+1+k == len(b):
				return i, false // the '<' is read again with what follows
			}
			// Not a comment: the byte that differs is read as any other,
			// and since depth > 0 now it cannot end the directive.
			d.depth++
			i += 1 + k
			continue
		}
		i++
	}
	return i, false
}

// The classes of the bytes of a name in nameClass.
const (
	nameASCII    = 1 << iota // an ASCII byte of a name other than ':'
	nameColon                // ':'
	nameNonASCII             // a byte of a multi-byte character
)

// Byte classes.
var (
	nameClass    [256]uint8
	nameByte     [256]bool // a byte of a name as Decoder.readName reads it
	firstASCII   [256]bool // an ASCII byte that may start a name
	refByte      [256]bool // a byte a reference may go on with, after '&'
	plainByte    [256]bool // character data that needs no second look
	unquotedByte [256]bool // a byte of an unquoted attribute value
	digitVal     [256]uint8
)

func init() {
	for c := range 256 {
		b := byte(c)
		nameByte[c] = isNameByte(b)
		firstASCII[c] = isLetter(b) || b == '_' || b == ':'
		nameClass[c] = classOf(b)
		refByte[c] = nameByte[c] || b == '#'
		plainByte[c] = b == '\t' || b == '\n' || b >= 0x20 && b < utf8.RuneSelf && b != '&' && b != ']'
		unquotedByte[c] = isLetter(b) || isDigit(b) || b == '_' || b == ':' || b == '-'
		digitVal[c] = hexVal(b)
	}
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
func isDigit(b byte) bool  { return '0' <= b && b <= '9' }

// isNameByte is a byte of a name as Decoder.readName reads it.
func isNameByte(b byte) bool {
	return isLetter(b) || isDigit(b) || b == '_' || b == ':' || b == '.' || b == '-' || b >= utf8.RuneSelf
}

// classOf is the class of b in nameClass.
func classOf(b byte) uint8 {
	switch {
	case b == ':':
		return nameColon
	case b >= utf8.RuneSelf:
		return nameNonASCII
	case isNameByte(b):
		return nameASCII
	}
	return 0
}

// hexVal is the value of b as a hexadecimal digit, or 255.
func hexVal(b byte) uint8 {
	switch {
	case isDigit(b):
		return b - '0'
	case 'a' <= b && b <= 'f':
		return b - 'a' + 10
	case 'A' <= b && b <= 'F':
		return b - 'A' + 10
	}
	return 255
}

// isName is the function of encoding/xml: s is a Name of XML 1.0.
func isName(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	ascii := true
	for _, c := range s {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		if !firstASCII[s[0]] {
			return false
		}
		for _, c := range s {
			if !nameByte[c] {
				return false
			}
		}
		return true
	}
	c, n := utf8.DecodeRune(s)
	if c == utf8.RuneError && n == 1 {
		return false
	}
	if !unicode.Is(first, c) {
		return false
	}
	for n < len(s) {
		s = s[n:]
		c, n = utf8.DecodeRune(s)
		if c == utf8.RuneError && n == 1 {
			return false
		}
		if !unicode.Is(first, c) && !unicode.Is(second, c) {
			return false
		}
	}
	return true
}
