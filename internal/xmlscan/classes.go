package xmlscan

import (
	"unicode"
	"unicode/utf8"
)

// This file holds the classes of bytes the scanner looks bytes up in, and
// the test of a name of XML 1.0 on the tables of tables.go.

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
