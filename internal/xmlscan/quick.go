package xmlscan

import (
	"encoding/binary"
	"math/bits"
)

// This file is the quick path of Next: the three tokens that make nearly
// all of a sitemap (a start tag that is a name and '>', the end tag of the
// innermost element, plain character data) read in one call, and the table
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
	n     int       // the length of the name
	colon int       // the index of the colon that splits it, or 0
	epoch uint64    // t.nsEpoch when space was translated; noEpoch for never
	space []byte
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
	t.slots = append(t.slots, nameSlot{w: *w, n: n, colon: colon, epoch: noEpoch})
	s := &t.slots[len(t.slots)-1]
	copy(s.b[:], b[:n])
	t.slotIdx[h] = uint8(len(t.slots))
	return len(t.slots) - 1
}

// quick reads the next token on the quick path, or returns nil, having read
// nothing the general path would read otherwise, for it to read. It is
// called with no error, no end element pending, no CDATA section going on
// and a byte unread.
func (t *Scanner) quick() (*Token, error) {
	if t.buf[t.pos] != '<' {
		if t.skipSpace {
			i := skipSpace(t.buf[:t.end], t.pos)
			if i == t.pos || i == t.end || t.buf[i] != '<' {
				return t.quickText()
			}
			t.pos = i // white space the caller does not read
		} else {
			return t.quickText()
		}
	}
	if t.end-t.pos < 2 || cap(t.buf)-t.pos < bufSlack {
		return nil, nil
	}
	if t.buf[t.pos+1] == '/' {
		return t.quickEnd(), nil
	}
	return t.quickStart(), nil
}

// quickText reads character data as text does.
func (t *Scanner) quickText() (*Token, error) {
	if _, err := t.text(); err != nil {
		return nil, err
	}
	return &t.tok, nil
}

// quickStart reads the start tag at pos when it is an ASCII name of at most
// maxInternLen bytes that starts with a letter, with at most one colon,
// then '>', and the table has or takes its name: the element is pushed as
// the slot of its name, translated once for as long as the bindings in
// scope do not change.
func (t *Scanner) quickStart() *Token {
	b := t.buf[t.pos+1 : cap(t.buf)]
	avail := t.end - t.pos - 1
	j, colon := 0, 0
	for {
		m := ^asciiLetters(binary.LittleEndian.Uint64(b[j:])) & allHigh
		if m == 0 {
			if j += 8; j > maxInternLen {
				return nil
			}
			continue
		}
		j += bits.TrailingZeros64(m) >> 3
		if j >= avail || j > maxInternLen {
			return nil
		}
		c := b[j]
		if c == '>' {
			break
		}
		switch nameClass[c] {
		case nameASCII:
		case nameColon:
			if colon != 0 {
				return nil
			}
			colon = j
		default:
			return nil
		}
		j++
	}
	if j == 0 || !isLetter(b[0]) || t.depth >= MaxNesting {
		return nil
	}
	if colon == j-1 {
		colon = 0 // a colon that does not split the name (see nsName)
	}
	w := loadName(b, j)
	k := t.slot(b, j, colon, &w)
	if k < 0 {
		return nil
	}
	s := &t.slots[k]
	prefix, local := s.names()
	if s.epoch != t.nsEpoch {
		s.space, s.epoch = t.translate(prefix, local, true), t.nsEpoch
	}
	n := len(t.stk)
	if n == cap(t.stk) {
		t.stk = append(t.stk, scanEntry{})
	}
	t.stk = t.stk[:n+1]
	e := &t.stk[n]
	e.binding, e.slot, e.space = false, k+1, s.space
	e.off, e.mid, e.end = len(t.arena), len(t.arena), len(t.arena)
	t.depth++
	t.pos += j + 2
	t.longRef = refNone
	t.tok.set(Start, s.space, local, nil)
	return &t.tok
}

// quickEnd reads the end tag at pos when it is "</", the name of the
// innermost open element, kept as a slot, and '>'.
func (t *Scanner) quickEnd() *Token {
	n := len(t.stk)
	if n == 0 || t.stk[n-1].slot == 0 {
		return nil
	}
	e := &t.stk[n-1]
	s := &t.slots[e.slot-1]
	if t.end-t.pos < s.n+3 || t.buf[t.pos+2+s.n] != '>' {
		return nil
	}
	b := t.buf[t.pos+2 : cap(t.buf)]
	if loadName(b, s.n) != s.w {
		return nil
	}
	t.stk = t.stk[:n-1]
	t.depth--
	if n > 1 && t.stk[n-2].binding {
		t.popBindings()
	}
	t.pos += s.n + 3
	t.longRef = refNone
	_, local := s.names()
	t.tok.set(End, e.space, local, nil)
	return &t.tok
}
