package xmlscan

import (
	"encoding/binary"
	"math/bits"
)

// This file is the quick path of Next: the tokens that make nearly all of
// a sitemap (a start tag that is a name and '>', the end tag of the
// innermost element, plain character data, character data with the five
// predefined references, a CDATA section) read in one call, and the table
// of element names that lets an element be pushed and its end tag matched
// without copying or comparing its bytes one by one. Whatever the quick
// path does not read whole and certain of, it leaves untouched for the
// general path (rawToken and the functions it calls), which reads it as
// before: the tokens are the same either way.

// The bounds of the table of element names. A sitemap, a feed and their
// extensions use a few dozen distinct names at most; past maxInterned
// names, or for a name longer than maxInternLen, an element is kept by
// copying its name into the arena, as the general path does, so a document
// of a million distinct names costs what it did without the table.
const (
	maxInterned  = 64
	maxInternLen = 32
	// bufSlack is how many bytes the scanner's buffers have past their
	// length, so that a word may be loaded at any index below the length
	// without a test of the bounds: the bytes past t.end are masked off.
	bufSlack = 2 * maxInternLen
)

// nameSlot is one element name in the table: its bytes, the words they
// load as, and the namespace URI it translated to at nsEpoch epoch.
type nameSlot struct {
	w     [4]uint64 // name as little-endian words, zero past n
	mask  uint64    // the bytes of the name in w[0]
	mask1 uint64    // and in w[1]
	n     int       // the length of the name
	colon int       // the index of the colon that splits it, or 0
	epoch uint64    // t.nsEpoch when space was translated; noEpoch for never
	space []byte
	// local is the local name, cut from b of the slot as it was made:
	// once the table grows, that may be the copy left in the old array,
	// whose bytes are the same and are never written again.
	local []byte
	id    uint64 // the binding space comes from (see Token.NS)
	class uint8  // the class of the local name (see SetClasses)
	b     [maxInternLen]byte
}

// noEpoch is the epoch of a slot whose name was never translated: t.nsEpoch
// counts up from 0 and never comes near it.
const noEpoch = ^uint64(0)

// names returns the prefix and local name of the slot.
func (s *nameSlot) names() (prefix, local []byte) {
	if s.colon == 0 {
		return s.b[:0], s.b[:s.n]
	}
	return s.b[:s.colon], s.b[s.colon+1 : s.n]
}

// loadName returns the words of the name at b[:n], n <= maxInternLen,
// which has at least maxInternLen bytes it may read past n.
func loadName(b []byte, n int) (w [4]uint64) {
	b = b[:maxInternLen]
	for k := 0; 8*k < n; k++ {
		x := binary.LittleEndian.Uint64(b[8*k:])
		if r := n - 8*k; r < 8 {
			x &= 1<<(8*r) - 1
		}
		w[k] = x
	}
	return w
}

// slotHash is the bucket of the name whose first word is w0 and whose
// length is n in t.slotIdx.
func slotHash(w0 uint64, n int) uint8 {
	return uint8(((w0 ^ uint64(n)) * 0x9E3779B97F4A7C15) >> 57)
}

// slot returns the index in t.slots of the name b[:n], which has the words
// w, adding it if the table has room; -1 when it has not.
func (t *Scanner) slot(b []byte, n, colon int, w *[4]uint64) int {
	h := slotHash(w[0], n)
	for {
		k := int(t.slotIdx[h])
		if k == 0 {
			break
		}
		if s := &t.slots[k-1]; s.n == n && s.w == *w {
			return k - 1
		}
		h = (h + 1) & (uint8(len(t.slotIdx)) - 1)
	}
	switch len(t.slots) {
	case maxInterned:
		return -1
	case 0:
		t.slots = make([]nameSlot, 0, 16) // enough for a sitemap at once
	}
	sl := nameSlot{w: *w, mask: ^uint64(0) >> (64 - 8*min(n, 8)), n: n, colon: colon, epoch: noEpoch}
	if n > 8 {
		sl.mask1 = ^uint64(0) >> (64 - 8*min(n-8, 8))
	}
	t.slots = append(t.slots, sl)
	s := &t.slots[len(t.slots)-1]
	copy(s.b[:], b[:n])
	if n >= 8 {
		// guess finds a name of a word or more by its first word.
		t.longIdx[slotHash(s.w[0], 0)] = uint8(len(t.slots))
	}
	_, s.local = s.names()
	s.class = t.classOf(s.local)
	t.slotIdx[h] = uint8(len(t.slots))
	return len(t.slots) - 1
}

// spaceRun returns the length of the white space at the front of b, up to
// a '<' among the avail bytes read, when it is a newline, a space or a tab
// and then spaces, as a sitemap is indented, and is shorter than 8 bytes; 0
// for any other text. b has at least 8 bytes.
func spaceRun(b []byte, avail int) int {
	if c := b[0]; c != '\n' && c != ' ' && c != '\t' {
		return 0
	}
	y := binary.LittleEndian.Uint64(b) ^ 0x2020202020202020
	// The high bit of each byte that is not a space: with its own high
	// bit cleared first, adding to a byte cannot carry into the next.
	m := (y&^allHigh + 0x7F7F7F7F7F7F7F7F | y) & allHigh
	n := bits.TrailingZeros64(m&^0x80) >> 3
	if n < 8 && n < avail && b[n] == '<' {
		return n
	}
	return 0
}

// quickText reads the character data at the front of b, t.buf[t.pos:] to
// its capacity: white space that spaceRun finds, which SkipSpace leaves out
// before the tag it reads next, or else plain text (see plainText), or else
// text as text does. It returns nil for the general path to read the text,
// or when it fails: the general path then returns t.err.
func (t *Scanner) quickText(b []byte) *Token {
	n := spaceRun(b, t.end-t.pos)
	if t.skipSpace {
		switch c := b[0]; {
		case n > 0:
			t.pos += n // white space the caller does not read
			if b = b[n:]; b[1] == '/' {
				return t.quickEnd(b)
			}
			return t.quickStart(b)
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			return nil // white space that rawToken skips
		}
	}
	if n == 0 {
		if n = plainText(b[:t.end-t.pos]); n < 0 {
			if tok := t.quickRefs(b); tok != nil {
				return tok
			}
			if _, err := t.textRest(); err != nil {
				t.fail(err)
				return nil
			}
			return &t.tok
		}
	}
	t.tok.set(Text, nil, nil, b[:n])
	t.pos += n
	t.longRef = refNone
	return &t.tok
}

// quickStart reads the start tag at the front of b, t.buf[t.pos:] to its
// capacity, when it is an ASCII name of at most maxInternLen bytes that
// starts with a letter, with at most one colon, then '>', and the table has
// or takes its name: the element is pushed as the slot of its name,
// translated once for as long as the bindings in scope do not change.
func (t *Scanner) quickStart(b []byte) *Token {
	if t.depth >= MaxNesting {
		return nil
	}
	k := t.guess(b[1:])
	if k < 0 {
		// b is cut again rather than kept from before the call, which
		// would cost its saving and restoring on every start tag.
		b := t.buf[t.pos+1 : cap(t.buf)]
		if b[0] == '!' {
			return t.quickCDATA(b)
		}
		if k = t.startName(b); k < 0 {
			return nil
		}
	}
	s := &t.slots[k]
	if s.epoch != t.nsEpoch {
		prefix, local := s.names()
		s.space, s.id = t.resolve(prefix, local, true)
		s.epoch = t.nsEpoch
	}
	n := len(t.stk)
	if n == cap(t.stk) {
		t.stk = append(t.stk, scanEntry{})
	}
	t.stk = t.stk[:n+1]
	e := &t.stk[n]
	e.binding, e.slot, e.space, e.off, e.id, e.class = false, k+1, s.space, len(t.arena), s.id, s.class
	t.depth++
	t.pos += s.n + 2
	t.longRef = refNone
	t.tok.set(Start, s.space, s.local, nil)
	t.tok.Class, t.tok.NS = s.class, s.id
	return &t.tok
}

// guess returns the slot of the name at the front of b, after '<', when it
// is one the table has and '>' follows it, or -1: it tries the slot its
// first word leads to without reading the name byte by byte first. The
// bytes of a slot are those of a name that startName read, so that when
// they and the '>' after them are b's, b starts with a bare start tag.
func (t *Scanner) guess(b []byte) int {
	const ones = 0x0101010101010101
	avail := t.end - t.pos - 1
	x0 := binary.LittleEndian.Uint64(b)
	gt := x0 ^ (ones * '>')
	if m := (gt - ones) &^ gt & allHigh; m != 0 {
		// A name shorter than a word: the first '>' is exact (a borrow
		// may set a high bit past it, never before).
		n := bits.TrailingZeros64(m) >> 3
		if n == 0 || n >= avail {
			return -1
		}
		w0 := x0 & (^uint64(0) >> (64 - 8*n))
		k := int(t.slotIdx[slotHash(w0, n)]) - 1
		if k < 0 || t.slots[k].n != n || t.slots[k].w[0] != w0 {
			return -1
		}
		return k
	}
	k := int(t.longIdx[slotHash(x0, 0)]) - 1
	if k < 0 {
		return -1
	}
	s := &t.slots[k]
	if s.w[0] != x0 || s.n >= avail || b[s.n] != '>' {
		return -1
	}
	// The first word is the slot's: the rest of the name is compared.
	switch {
	case s.n == 8:
	case s.n <= 16:
		if binary.LittleEndian.Uint64(b[8:])&s.mask1 != s.w[1] {
			return -1
		}
	case loadName(b, s.n) != s.w:
		return -1
	}
	return k
}

// startName reads the name at the front of b, after '<', when the start
// tag is one quickStart reads, and returns its slot, or -1.
func (t *Scanner) startName(b []byte) int {
	avail := t.end - t.pos - 1
	x0 := binary.LittleEndian.Uint64(b)
	j, colon := 0, 0
	for m := ^asciiLetters(x0) & allHigh; ; {
		if m == 0 {
			if j += 8; j > maxInternLen {
				return -1
			}
			m = ^asciiLetters(binary.LittleEndian.Uint64(b[j:])) & allHigh
			continue
		}
		j += bits.TrailingZeros64(m) >> 3
		if j >= avail || j > maxInternLen {
			return -1
		}
		c := b[j]
		if c == '>' {
			break
		}
		switch nameClass[c] {
		case nameASCII:
		case nameColon:
			if colon != 0 {
				return -1
			}
			colon = j
		default:
			return -1
		}
		j++
		m = ^asciiLetters(binary.LittleEndian.Uint64(b[j:])) & allHigh
	}
	if j == 0 || !isLetter(b[0]) {
		return -1
	}
	if colon == j-1 {
		colon = 0 // a colon that does not split the name (see nsName)
	}
	w0 := x0 // the first word of the name
	if j < 8 {
		w0 &= ^uint64(0) >> (64 - 8*j)
	}
	k := int(t.slotIdx[slotHash(w0, j)]) - 1
	if k < 0 || t.slots[k].n != j || t.slots[k].w[0] != w0 || j > 8 && t.slots[k].w != loadName(b, j) {
		w := loadName(b, j)
		k = t.slot(b, j, colon, &w)
	}
	return k
}

// quickEnd reads the end tag at the front of b, t.buf[t.pos:] to its
// capacity, when it is "</", the name of the innermost open element, kept as
// a slot, and '>'.
//
// It makes no call before the pop of bindings, which comes last: saving
// and restoring what a call needs after it would cost more on every end
// tag than the rest of the end tag does.
func (t *Scanner) quickEnd(b []byte) *Token {
	n := len(t.stk)
	if n == 0 || t.stk[n-1].slot == 0 {
		return nil
	}
	e := &t.stk[n-1]
	s := &t.slots[e.slot-1]
	if t.end-t.pos < s.n+3 || b[2+s.n] != '>' {
		return nil
	}
	// s.matches, with its common cases written out here.
	name := b[2:]
	if binary.LittleEndian.Uint64(name)&s.mask != s.w[0] {
		return nil
	}
	switch {
	case s.n <= 8:
	case s.n <= 16:
		if binary.LittleEndian.Uint64(name[8:])&s.mask1 != s.w[1] {
			return nil
		}
	default:
		if loadName(name, s.n) != s.w {
			return nil
		}
	}
	t.stk = t.stk[:n-1]
	t.depth--
	t.pos += s.n + 3
	t.longRef = refNone
	t.tok.set(End, e.space, s.local, nil)
	t.tok.Class, t.tok.NS = s.class, e.id
	if n > 1 && t.stk[n-2].binding {
		t.popBindings()
	}
	return &t.tok
}

// SkipText reads past the rest of the element whose start tag Next has
// just returned, for a caller with no use for its content, when the quick
// path can: the content is empty, plain text (see plainText) or one CDATA
// section that quickCDATA hands out as it stands, and the element's end tag
// follows it at once. It reports whether it did: the element is then ended
// as though Next had returned its text and its end element, with every
// check of those tokens made, and Next goes on after the end tag. Otherwise
// nothing is read, and Next returns the content as it would have.
func (t *Scanner) SkipText() bool {
	if t.pos >= t.quickLim || len(t.stk) == 0 {
		return false
	}
	at, ref := t.pos, t.longRef
	switch b := t.buf[t.pos:cap(t.buf)]; {
	case b[0] != '<':
		n := plainText(b[:t.end-t.pos])
		if n < 0 {
			return false
		}
		t.pos += n
	case b[1] == '!':
		if t.quickCDATA(b[1:]) == nil {
			return false
		}
	}
	if t.pos < t.quickLim {
		if b := t.buf[t.pos:cap(t.buf)]; b[0] == '<' && b[1] == '/' && t.quickEnd(b) != nil {
			return true
		}
	}
	t.pos, t.longRef = at, ref
	return false
}

// cdataOpen is "<![CDATA[" after its '<', as a little-endian word.
const cdataOpen = uint64('!') | uint64('[')<<8 | uint64('C')<<16 | uint64('D')<<24 |
	uint64('A')<<32 | uint64('T')<<40 | uint64('A')<<48 | uint64('[')<<56

// quickCDATA reads the CDATA section at the front of b, after its '<',
// t.buf[t.pos+1:] to its capacity, when its "]]>" is among the bytes read
// and its text needs nothing of decode (see cdataText): the text is handed
// out as it stands in the buffer. A section cut by the end of the bytes
// read, or with a '\r', a control byte or a byte from 0x80 in it, is left
// to the general path (bang and cdata), which reads it whole or in parts,
// rewrites '\r' and checks its characters; the token is the same.
func (t *Scanner) quickCDATA(b []byte) *Token {
	const open, close = len("<![CDATA["), len("]]>")
	avail := t.end - t.pos
	if avail < open+close || binary.LittleEndian.Uint64(b) != cdataOpen {
		return nil
	}
	text := b[open-1:]
	n := cdataText(text, avail-open)
	if n < 0 {
		return nil
	}
	t.tok.set(Text, nil, nil, text[:n])
	t.pos += open + n + close
	t.longRef = refNone
	return &t.tok
}

// cdataText returns the index of the first "]]>" among the n bytes at the
// front of b, the text of a CDATA section, when every byte before it is a
// tab, a newline or ASCII from 0x20, which decode hands out unchanged in a
// section; -1 when one is not or the n bytes hold no "]]>". It reads b to
// its capacity a block at a time with stopAt, the bytes past n never taken
// for the section's.
func cdataText(b []byte, n int) int {
	if n <= 0 {
		return -1
	}
	w := b[:cap(b)]
	for i := 0; ; {
		k := stopAt(w, i, n, cdataStops)
		if k >= n {
			return -1
		}
		switch w[k] {
		case ']':
			if k+2 >= n {
				return -1 // the section may end past the bytes read
			}
			if w[k+1] == ']' && w[k+2] == '>' {
				return k
			}
		case '\t', '\n':
		default:
			return -1
		}
		if i = k + 1; i >= n {
			return -1
		}
	}
}

// maxQuickRefs is how many references quickRefs replaces in one text; a
// text with more is left to the general path.
const maxQuickRefs = 8

// The names of the five entities XML predefines, with their ';', as
// little-endian words.
const (
	refAmpWord  = uint64('a') | uint64('m')<<8 | uint64('p')<<16 | uint64(';')<<24
	refLtWord   = uint64('l') | uint64('t')<<8 | uint64(';')<<16
	refGtWord   = uint64('g') | uint64('t')<<8 | uint64(';')<<16
	refQuotWord = uint64('q') | uint64('u')<<8 | uint64('o')<<16 | uint64('t')<<24 | uint64(';')<<32
	refAposWord = uint64('a') | uint64('p')<<8 | uint64('o')<<16 | uint64('s')<<24 | uint64(';')<<32
)

// quickRefs reads the character data at the front of b, t.buf[t.pos:] to
// its capacity, up to a '<' among the bytes read, when every byte before
// it is a plainByte, a ']' that does not begin "]]>", or the '&' of one
// of the five references XML predefines (at most maxQuickRefs of them),
// and replaces those in place, as decode would. It returns nil, having
// written nothing, for any other text: a character reference, another
// entity (an error, or HTML's in tolerant mode), a '\r', a control or
// non-ASCII byte, "]]>", or text that runs past the bytes read, which the
// general path then reads as before. The predefined references mean the
// same in both modes, so the token is the same either way.
func (t *Scanner) quickRefs(b []byte) *Token {
	const ones = 0x0101010101010101
	n := t.end - t.pos
	var refs [maxQuickRefs]int32 // where each reference starts
	var sizes [maxQuickRefs]uint8
	var chars [maxQuickRefs]byte
	nrefs, lt := 0, -1
	w := b[:cap(b)]
scan:
	for i := 0; i+8 <= len(w); {
		x := binary.LittleEndian.Uint64(w[i:])
		amp, bracket, less := x^(ones*'&'), x^(ones*']'), x^(ones*'<')
		m := ((x - ones*0x20) | x | (amp-ones)&^amp | (bracket-ones)&^bracket | (less-ones)&^less) & allHigh
		if m == 0 {
			if i += 8; i >= n {
				return nil
			}
			continue
		}
		k := i + bits.TrailingZeros64(m)>>3
		if k >= n {
			return nil
		}
		i = k + 1
		switch w[k] {
		case '<':
			lt = k
			break scan
		case '\t', '\n':
		case ']':
			if k+2 >= n || w[k+1] == ']' && w[k+2] == '>' {
				return nil
			}
		case '&':
			if nrefs == maxQuickRefs || k+9 > len(w) {
				return nil
			}
			var size int
			var c byte
			switch y := binary.LittleEndian.Uint64(w[k+1:]); {
			case y&0xFFFFFFFF == refAmpWord:
				size, c = 5, '&'
			case y&0xFFFFFF == refLtWord:
				size, c = 4, '<'
			case y&0xFFFFFF == refGtWord:
				size, c = 4, '>'
			case y&0xFFFFFFFFFF == refQuotWord:
				size, c = 6, '"'
			case y&0xFFFFFFFFFF == refAposWord:
				size, c = 6, '\''
			default:
				return nil
			}
			if k+size >= n {
				return nil // the text goes on past the bytes read
			}
			refs[nrefs], sizes[nrefs], chars[nrefs] = int32(k), uint8(size), c
			nrefs++
			i = k + size
		default:
			return nil
		}
	}
	switch {
	case lt < 0:
		return nil // no '<' read in words: the buffer's last bytes
	case nrefs == 0:
		t.tok.set(Text, nil, nil, b[:lt]) // a ']' in it, and no reference
		t.pos += lt
		t.longRef = refNone
		return &t.tok
	}
	// Nothing can fail from here: the references are replaced, from the
	// first on, each run of text after one moved up to the one before.
	o := int(refs[0])
	for r := range nrefs {
		if r > 0 {
			o += copy(b[o:], b[int(refs[r-1])+int(sizes[r-1]):refs[r]])
		}
		b[o] = chars[r]
		o++
	}
	o += copy(b[o:], b[int(refs[nrefs-1])+int(sizes[nrefs-1]):lt])
	t.tok.set(Text, nil, nil, b[:o])
	t.pos += lt
	t.longRef = refNone
	return &t.tok
}
