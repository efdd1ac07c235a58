package xmlscan

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// This file reads character data and CDATA sections, and unescapes the
// references in text and in attribute values, as Decoder.text does.

// text reads character data up to the next '<', or as much of it as fills
// the buffer.
func (t *Scanner) text() (rawKind, error) {
	if n := plainText(t.buf[t.pos:t.end]); n >= 0 {
		// Nothing in it to unescape or check: handed out as it is, in
		// one pass over its bytes.
		t.tok.set(Text, nil, nil, t.buf[t.pos:t.pos+n])
		t.pos += n
		t.longRef = refNone
		return rawText, nil
	}
	return t.textRest()
}

// textRest is text for character data that is not plain text up to a '<'.
func (t *Scanner) textRest() (rawKind, error) {
	for {
		b := t.buf[t.pos:t.end]
		n := bytes.IndexByte(b, '<')
		eof, cut := false, false
		if n < 0 {
			switch {
			case t.rerr != nil:
				n, eof = len(b), true
				if t.longRef != refNone && t.rerr == io.EOF && refGoesOn(b, t.longRef) != refNone {
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
			if cut {
				t.longRef = longRefState(b[:n], t.longRef)
			} else {
				t.longRef = refNone
			}
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

// refState is how far a reference that is still going has come, as
// Decoder.text reads one: what the bytes after its '&' let come next.
type refState uint8

const (
	refNone refState = iota // no reference is going on
	refAmp                  // after '&': a '#', or a name
	refHash                 // after "&#": an 'x', or decimal digits
	refDec                  // decimal digits
	refHex                  // after "&#x": hex digits
	refName                 // the bytes of a name
)

// refGoesOn reads b as the bytes that follow a reference in state s, and
// returns the state once b is read: refNone when a byte of b ends the
// reference, as a byte that cannot go on with it (';' among them) does for
// Decoder.text.
func refGoesOn(b []byte, s refState) refState {
	for _, c := range b {
		if s = refStep(s, c); s == refNone {
			return refNone
		}
	}
	return s
}

// refStep returns the state of a reference in state s once c is read:
// refNone when c cannot go on with it.
func refStep(s refState, c byte) refState {
	switch {
	case s == refAmp && c == '#':
		return refHash
	case s == refHash && c == 'x':
		return refHex
	case (s == refHash || s == refDec) && isDigit(c):
		return refDec
	case s == refHex && (isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'):
		return refHex
	case (s == refAmp || s == refName) && nameByte[c]:
		return refName
	}
	return refNone
}

// longRefState reports the state of the reference still going at the end
// of the text b, handed out with a reference longer than maxRefLength cut
// at its end (so read as text): from its last '&', or, with none in b, from
// the state s of the reference going on before b. Tolerant mode then ends
// in an error if the input ends before the reference does, as encoding/xml
// does, which reads a reference whole.
func longRefState(b []byte, s refState) refState {
	if a := bytes.LastIndexByte(b, '&'); a >= 0 {
		return refGoesOn(b[a+1:], refAmp)
	}
	return refGoesOn(b, s)
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
		t.setLimit()
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

// plainText returns the index of the first '<' of b when every byte before
// it is a plainByte (so that decode would hand the text out unchanged), or
// -1: the bytes before it need decode, or b has no '<'. It finds the '<'
// and checks the bytes before it in one pass with stopAt, which reads b
// to its capacity a block at a time; the bytes past its length are never
// taken for its own.
func plainText(b []byte) int {
	n := len(b)
	if n == 0 {
		return -1
	}
	w := b[:cap(b)]
	for i := 0; ; {
		k := stopAt(w, i, n, textStops)
		if k >= n {
			return -1 // no '<' in b; what follows it is not b's
		}
		switch b[k] {
		case '<':
			return k
		case '\t', '\n':
			if i = k + 1; i == n {
				return -1
			}
		default:
			return -1
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
	// A reference longer than maxRefLength is read as what is no
	// reference, as it is when it does not fit in the buffer (see
	// textCut), however the input was read.
	if k := refStop(b, i); k-i > maxRefLength {
		if k == len(b) && eof {
			return -1, 0, t.eofError() // as encoding/xml, which reads it whole
		}
		return t.notReference(b, i, k, at)
	}
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
		if t.obs != nil {
			t.note(NoteSyntax, fmt.Sprintf("character reference to %U, which XML forbids", rune(n)), at)
		}
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
	if t.obs != nil {
		t.note(NoteSyntax, "entity &"+string(name)+"; is HTML's, not XML's", at)
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
		ent := string(b[i:min(j, i+maxEntityShown)])
		switch {
		case j > i+maxEntityShown:
			ent += "…"
		case ent[len(ent)-1] != ';':
			ent += " (no semicolon)"
		}
		return -1, 0, t.syntaxError("invalid character entity "+ent, at+i)
	}
	if t.obs != nil {
		t.note(NoteSyntax, "& that begins no reference (write &amp;)", at+i)
	}
	return -1, 0, nil
}

// refStop returns the index of the byte that ends the reference whose '&'
// is at b[i], as refStep tells it (len(b) when none in b does).
func refStop(b []byte, i int) int {
	s := refAmp
	for k := i + 1; k < len(b); k++ {
		if s = refStep(s, b[k]); s == refNone {
			return k
		}
	}
	return len(b)
}

// maxEntityShown is how much of a reference that is none an error shows.
const maxEntityShown = 64

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
