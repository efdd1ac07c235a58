// Package printable writes text that a server or a document controls so
// that a terminal shows it rather than obeys it.
//
// A status line, a header value, a URL or a message taken from a response
// may hold bytes a terminal reads as commands: ESC opens a control sequence
// (a colour, clearing the screen, a window title, a hyperlink), BEL rings,
// a carriage return or a backspace overwrites what came before, and the
// bidirectional overrides of Unicode reorder what follows them. Escape
// writes each such character as a backslash escape, and leaves every other
// character, the backslash included, as it is.
package printable

import (
	"strings"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// Escape returns s with every character that a terminal may act on written
// as an escape, as Go's strconv.Quote writes it: \t, \n, \r, \a, \b, \f and
// \v by name; another C0 control and DEL as \x1b; a C1 control, a
// bidirectional control or the line and paragraph separators as \u0085 or
// \u202e; a byte that is not part of valid UTF-8 as \xff. s is returned as
// it is when it holds none of them, with no allocation.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if escapes(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !escapes(r, n) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		switch {
		case r == utf8.RuneError: // invalid UTF-8: n is 1
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&0xf])
		case r < 0x80:
			writeASCII(&b, byte(r))
		default:
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[r>>shift&0xf])
			}
		}
		i += n
	}
	return b.String()
}

// writeASCII writes the escape of a C0 control or DEL.
func writeASCII(b *strings.Builder, c byte) {
	if i := strings.IndexByte("\a\b\f\n\r\t\v", c); i >= 0 {
		b.WriteByte('\\')
		b.WriteByte("abfnrtv"[i])
		return
	}
	b.WriteString(`\x`)
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&0xf])
}

// escapes reports whether the rune r, n bytes long, is written escaped. A
// U+FFFD written as such (three bytes) is a character like any other.
func escapes(r rune, n int) bool {
	if r == utf8.RuneError {
		return n == 1
	}
	return IsControl(r)
}

// IsControl reports whether Escape writes the character r escaped: a C0
// or C1 control, DEL, the line or paragraph separator, or one of the
// characters that set or override the direction of the text that follows
// (the marks U+061C, U+200E and U+200F, the embeddings and overrides U+202A
// to U+202E, the isolates U+2066 to U+2069).
func IsControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	}
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
