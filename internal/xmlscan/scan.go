package xmlscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// This file is the scanner's state, its caps, Next with the namespaces and
// the matching of end tags, and the reading of raw tokens; buffer.go reads
// the input into the buffer, and text.go, tag.go, skip.go and classes.go
// read the kinds of tokens. The scanner reads the document into one
// reusable buffer, finds the end of each token with bytes.IndexByte, and
// hands out slices of that buffer, so a token costs no allocation once the
// buffer, the attribute slice and the element stack have grown to the
// document's shape.
//
// Its tokens are those of encoding/xml, quirks included: encoding/xml is the
// reference, so wherever encoding/xml (Decoder.Token, with Strict on, or off
// with HTMLEntity and no AutoClose list) departs from the XML specification,
// the scanner departs the same way. The comments of this package name the
// function of encoding/xml/xml.go whose behaviour each piece copies.

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
	// slot is, for an element whose name is in the table of names (see
	// quick.go), 1 + its index in t.slots; its bytes are not in the arena.
	slot int
	// id is the id of a binding (see Token.NS), or of the binding an
	// element's namespace URI comes from, 0 for none.
	id    uint64
	class uint8 // an element's class (see SetClasses)
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

	tok     Token    // the token being read
	quoted  []bool   // quoted[i]: tok.attrs[i].value is still raw, between quotes
	inCDATA bool     // the next bytes continue a CDATA section
	longRef refState // tolerant mode: the text read ends in a reference longer than maxRefLength (see longRefState)

	stk   []scanEntry
	binds []int  // the indexes in stk of the bindings, innermost last
	arena []byte // the names and URIs of stk
	depth int

	// The table of element names of the quick path (see quick.go): the
	// slots, and the buckets of their hash, each 1 + an index in slots or
	// 0 for none. nsEpoch changes whenever a binding comes into scope or
	// leaves it, so that a slot translated in the same epoch needs no
	// translating again.
	slots   []nameSlot
	slotIdx [2 * maxInterned]uint8
	longIdx [2 * maxInterned]uint8 // the slots of names of 8 bytes or more, by their first word
	nsEpoch uint64
	bindSeq uint64           // the id of the last binding made
	classes map[string]uint8 // see SetClasses

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

	// obs, when not nil, is told what tolerant mode reads past and what the
	// scanner skips (see SetObserver); the position of the scanner is then
	// kept for Pos: base is the offset in the input of buf[0], qAt the
	// index in buf up to which the lines are counted, qLine the line there
	// and qLineStart the offset in the input at which that line starts.
	obs        Observer
	dropped    []Name // with obs: the attributes keepAttrs dropped of the last start tag it read (DroppedAttrs)
	droppedEnd int64  // the offset in the input at which that start tag ends
	base       int64
	qAt, qLine int
	qLineStart int64

	skipSpace bool // see SkipSpace

	// quickLim bounds the quick path: Next takes it while t.pos <
	// quickLim, which setLimit keeps so at each change of t.err,
	// t.needClose, t.inCDATA, t.end and t.buf. It holds when none of the
	// three is set, two bytes are unread and bufSlack bytes of capacity
	// are left, so that Next tests one field before it takes the path.
	quickLim int
}

// nsSlot is the innermost binding of one prefix: an index in stk.
type nsSlot struct{ top int }

// tagPart is an attribute of a long start tag: prefix tagArena[off:mid],
// local name [mid:val], value [val:end].
type tagPart struct{ off, mid, val, end int }

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
	return &Scanner{r: r, strict: strict, buf: scanBuffers.Get().(*[scanBufSize + bufSlack]byte)[:scanBufSize], lines: 1}
}

// SetClasses hands the scanner the classes of the elements its caller
// tells apart, by local name: each start and end element then carries in
// Token.Class the class of its local name, 0 for a name not in classes, so
// that the caller switches on a small integer rather than on the bytes of
// the name. The scanner reads classes, never changes it, and looks a name
// up once for all the elements of that name that the quick path reads.
func (t *Scanner) SetClasses(classes map[string]uint8) {
	t.classes = classes
	for i := range t.slots {
		_, local := t.slots[i].names()
		t.slots[i].class = t.classOf(local)
	}
}

// SkipSpace tells the scanner whether its caller has no use for character
// data that is only white space, as between the elements of a sitemap:
// while on, such text before a tag is left out rather than handed out as a
// token (though white space that reaches past the bytes read so far may
// still be). Nothing else changes: white space is never an error. It is
// off in a new scanner, which hands out every text as encoding/xml does.
func (t *Scanner) SkipSpace(on bool) { t.skipSpace = on }

// Next returns the next token of the document, io.EOF at its clean end;
// any other error ends the document. After an error it returns the same
// error.
//
// Next is Decoder.Token: it reads a raw token, resolves namespaces and
// matches end elements to start elements, in one function so that a token
// costs one call. Like the sitemap package's reading of encoding/xml it has
// no AutoClose list.
func (t *Scanner) Next() (*Token, error) {
	if t.pos < t.quickLim {
		// The quick path (see quick.go).
		var tok *Token
		switch b := t.buf[t.pos:cap(t.buf)]; {
		case b[0] != '<':
			tok = t.quickText(b)
		case b[1] == '/':
			tok = t.quickEnd(b)
		default:
			tok = t.quickStart(b)
		}
		if tok != nil {
			return tok, nil
		}
	}
	return t.next() // which returns the error of the quick path, if any
}

// next is Next on the general path.
func (t *Scanner) next() (*Token, error) {
	if t.err != nil {
		return nil, t.err
	}
	var tok *Token
	for tok == nil {
		kind, err := t.rawToken()
		switch {
		case err != nil:
			return t.fail(err)
		case kind == rawText:
			tok = &t.tok
		case kind == rawStart:
			tok, err = t.startElement()
		case kind == rawEnd && t.endOfTop:
			t.endOfTop = false
			tok = t.popTop(&t.tok)
		case kind == rawEnd:
			tok, err = t.popElement(&t.tok, t.tok.Name.Space, t.tok.Name.Local)
		}
		if err != nil {
			t.err = err
			t.setLimit()
			return nil, err
		}
	}
	return tok, nil
}

// fail ends the document with the error err of reading a token: the end
// of the input with elements open is a truncated document.
func (t *Scanner) fail(err error) (*Token, error) {
	if err == io.EOF && len(t.stk) > 0 {
		err = t.truncated("unexpected EOF")
	}
	t.err = err
	t.setLimit()
	return nil, err
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
	t.pushElem(t.tok.Name.Space, t.tok.Name.Local)
	t.depth++
	if t.depth > MaxNesting {
		return nil, ErrTooDeep
	}
	if len(t.tok.Attrs) == 0 {
		return &t.tok, nil
	}
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
	e.binding, e.space, e.slot = binding, nil, 0
	e.off = len(t.arena)
	t.arena = append(t.arena, a...)
	e.mid = len(t.arena)
	t.arena = append(t.arena, b...)
	e.end = len(t.arena)
	e.id, e.class = 0, 0
	if binding {
		t.nsEpoch++
		t.bindSeq++
		e.id = t.bindSeq
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

// pushElem records an open element prefix:local, as push does, with the
// namespace URI its name translates to, and puts that URI in t.tok. The
// bytes are copied one by one: names are short, shorter than what a call
// of memmove costs.
func (t *Scanner) pushElem(prefix, local []byte) {
	n := len(t.stk)
	if n == cap(t.stk) {
		t.stk = append(t.stk, scanEntry{})
	}
	t.stk = t.stk[:n+1]
	off := len(t.arena)
	mid := off + len(prefix)
	end := mid + len(local)
	if end > cap(t.arena) {
		t.arena = append(t.arena[:cap(t.arena)], make([]byte, end-cap(t.arena))...)
	}
	t.arena = t.arena[:end]
	ar := t.arena[off:end]
	copy(ar, prefix)
	copy(ar[len(prefix):], local)
	e := &t.stk[n]
	e.binding, e.off, e.mid, e.end, e.slot = false, off, mid, end, 0
	// Translated from the arena's copy, the space outlives the buffer.
	e.space, e.id = t.resolve(t.arena[off:mid], local, true)
	e.class = t.classOf(local)
	t.tok.Name.Space, t.tok.NS, t.tok.Class = e.space, e.id, e.class
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
	sp, sl := t.elemName(s)
	if !bytes.Equal(sl, local) {
		if !t.strict {
			if t.obs != nil {
				t.note(NoteSyntax, "element <"+string(sl)+"> closed by </"+string(local)+">", t.pos)
			}
			// encoding/xml returns the open element's name untranslated, ends
			// the end element it read next, and leaves the namespace
			// bindings of the element it closed on its stack.
			t.needClose = true
			t.setLimit()
			t.toClose = append(append(t.toClose[:0], prefix...), local...)
			t.toCloseAt = len(prefix)
			tok.set(End, sp, sl, nil)
			tok.Class = t.classOf(sl)
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
	tok.NS, tok.Class = s.id, s.class
	return tok, nil
}

// popTop is popElement for an end element that endTag found to name the
// innermost open element, as nearly every end element does: there is
// nothing to check.
func (t *Scanner) popTop(tok *Token) *Token {
	s := t.pop()
	t.popBindings()
	tok.set(End, s.space, tok.Name.Local, nil)
	tok.NS, tok.Class = s.id, s.class
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

// elemName returns the prefix and the local name of the open element e.
func (t *Scanner) elemName(e *scanEntry) (prefix, local []byte) {
	if e.slot != 0 {
		return t.slots[e.slot-1].names()
	}
	return t.arena[e.off:e.mid], t.arena[e.mid:e.end]
}

// popBindings drops the namespace bindings of the element just closed.
func (t *Scanner) popBindings() {
	if len(t.stk) > 0 && t.stk[len(t.stk)-1].binding {
		t.nsEpoch++
	}
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
	space, _ := t.resolve(prefix, local, element)
	return space
}

// resolve is translate, and returns as well the id of the binding the URI
// comes from (see Token.NS), or 0 when none.
func (t *Scanner) resolve(prefix, local []byte, element bool) ([]byte, uint64) {
	switch {
	case len(prefix) == 0:
		if !element || string(local) == "xmlns" {
			return prefix, 0
		}
	case string(prefix) == "xmlns":
		return prefix, 0
	case string(prefix) == "xml":
		return xmlURLb, 0
	}
	if t.ns == nil {
		for i := len(t.binds) - 1; i >= 0; i-- {
			e := &t.stk[t.binds[i]]
			if e.mid-e.off == len(prefix) && (len(prefix) == 0 || string(t.arena[e.off:e.mid]) == string(prefix)) {
				return t.arena[e.mid:e.end], e.id
			}
		}
		return prefix, 0
	}
	if s := t.ns[string(prefix)]; s != nil && s.top >= 0 {
		e := &t.stk[s.top]
		return t.arena[e.mid:e.end], e.id
	}
	return prefix, 0
}

// classOf is the class of the element local in t.classes (see SetClasses).
func (t *Scanner) classOf(local []byte) uint8 {
	if t.classes == nil {
		return 0
	}
	return t.classes[string(local)]
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
	tok.Class, tok.NS = 0, 0
}

// rawToken is Decoder.rawToken: it reads the next token, its names
// untranslated, into t.tok.
func (t *Scanner) rawToken() (rawKind, error) {
	if t.needClose {
		t.needClose = false
		t.setLimit()
		t.tok.set(End, t.toClose[:t.toCloseAt], t.toClose[t.toCloseAt:], nil)
		return rawEnd, nil
	}
	if t.inCDATA {
		return t.cdata()
	}
	for t.pos == t.end {
		if !t.more(1) {
			if t.longRef != refNone && t.rerr == io.EOF {
				return 0, t.eofError()
			}
			return 0, t.rerr
		}
	}
	if t.buf[t.pos] != '<' {
		i := t.pos
		if t.skipSpace {
			i = skipSpace(t.buf[:t.end], i)
		}
		if i == t.pos || i == t.end || t.buf[i] != '<' {
			return t.text()
		}
		t.pos = i // white space the caller does not read
	}
	t.longRef = refNone
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
